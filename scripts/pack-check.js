#!/usr/bin/env node
// `npm run pack:check`: packs gpuledger as npm would publish it, installs the tarball into an empty folder without
// dev dependencies, and runs the installed CLI there (`npx gpuledger --help`, `--version`, `views`). Proves that the
// package carries everything it needs at run time (dist/, sql/, reports/, config/) and nothing needs tsx or tsc.
// Not part of `npm test`: the install takes a while (about a minute with a warm npm cache).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'gpuledger-pack-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const packed = JSON.parse(sh(npm, ['pack', '--json', '--pack-destination', work], root))[0];
  console.log(`packed ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1e6).toFixed(1)} MB`);
  const stray = packed.files.map((f) => f.path).filter((p) => /^(src|test|bench)\/|\.tsbuildinfo$/.test(p));
  if (stray.length) throw new Error(`the package should not carry ${stray.join(', ')}`);
  const app = join(work, 'app');
  mkdirSync(app);
  sh(npm, ['init', '-y'], app);
  sh(npm, ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', join(work, packed.filename)], app);
  const help = sh('npx', ['--no-install', 'gpuledger', '--help'], app);
  if (!/Usage: gpuledger/.test(help)) throw new Error(`npx gpuledger --help printed:\n${help}`);
  const version = sh('npx', ['--no-install', 'gpuledger', '--version'], app).trim();
  const views = sh('npx', ['--no-install', 'gpuledger', 'views', '--format', 'csv'], app);
  if (!/\bcost\b/.test(views)) throw new Error(`npx gpuledger views printed:\n${views}`);
  console.log(`installed into an empty folder without dev dependencies: --help ok, --version ${version}, views ok`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
