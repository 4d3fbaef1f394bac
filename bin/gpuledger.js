#!/usr/bin/env node
// Runs the compiled CLI in dist/ (built by `npm run build`, which `npm install` runs as `prepare`), so nothing is
// transpiled at start-up. In a development checkout (src/ beside dist/) a source file newer than the last build
// means dist/ is stale: then the sources run through tsx (a dev dependency) instead, so old code never runs silently.
// The installed package has no src/ and always runs dist/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';

// `gpuledger --version` alone needs nothing but package.json: answered before any module loads (issue 11: ≤ 0.3 s)
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}

const SRC = new URL('../src/', import.meta.url);
const STAMP = new URL('../dist/.build-stamp', import.meta.url);

function newerThan(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const url = new URL(entry.isDirectory() ? `${entry.name}/` : entry.name, dir);
    if (entry.isDirectory() ? newerThan(url, since) : statSync(url).mtimeMs > since) return true;
  }
  return false;
}

function distIsStale() {
  if (!existsSync(SRC)) return false;
  if (!existsSync(STAMP)) return true;
  return newerThan(SRC, statSync(STAMP).mtimeMs);
}

// A start-up failure (a broken build, a missing dependency) is told in one line too; once the CLI is loaded, its own
// handlers (src/cli/last-resort.ts) end every other failure with one line and a documented exit code.
let main;
try {
  if (distIsStale()) {
    if (process.stderr.isTTY) process.stderr.write('gpuledger: dist/ is older than src/; running the sources (slower) – npm run build\n');
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import('../src/cli/main.ts'));
  } else {
    ({ main } = await import('../dist/cli/main.js'));
  }
} catch (e) {
  process.stderr.write(`gpuledger: cannot start: ${String(e instanceof Error ? e.message : e).split('\n')[0]} (try npm install, or npm run build)\n`);
  process.exit(1);
}
process.exitCode = await main(process.argv);
