#!/usr/bin/env node
// `npm run build`: bundles the page script (scripts/page-script.js), compiles src/ to dist/ (tsconfig.build.json),
// then writes dist/.build-stamp dated to when the build *started*. bin/gpuledger.js compares source mtimes with that
// stamp, so a file saved while tsc was running still counts as newer than the build and is never mistaken for
// compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
// an installed package ships dist/ and no src/ (package.json "files"): npm may still run `prepare` when it is
// installed from a tarball or git, and then there is nothing to build and no TypeScript to build with
if (!existsSync(new URL('../src/', import.meta.url))) process.exit(0);
// `--if-stale` (npm start): nothing to do when dist/ was built after every source file was last saved
if (process.argv.includes('--if-stale') && !stale()) process.exit(0);
// the page script first (TypeScript for the browser, bundled into a module of src/): written only when it changed,
// and before `started`, so an unchanged script leaves the build fresh and a changed one is older than the stamp
// (imported here, not above: an installed package has no src/ and ships no page-script.js)
const { writePageScript } = await import('./page-script.js');
writePageScript();
const started = new Date();
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
// tsc exits 2 when it found type errors but emitted every file anyway: the JavaScript is what the sources say (as
// running them through tsx would be), so the build counts; `npm run typecheck` is where type errors fail
if (r.status === 2) process.stderr.write('build: type errors above; dist/ was emitted anyway – run npm run typecheck\n');
else if (r.status !== 0) process.exit(r.status ?? 1);
const stamp = fileURLToPath(new URL('../dist/.build-stamp', import.meta.url));
mkdirSync(fileURLToPath(new URL('../dist/', import.meta.url)), { recursive: true });
writeFileSync(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);

function newerThan(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const url = new URL(entry.isDirectory() ? `${entry.name}/` : entry.name, dir);
    if (entry.isDirectory() ? newerThan(url, since) : statSync(url).mtimeMs > since) return true;
  }
  return false;
}

function stale() {
  const stamp = new URL('../dist/.build-stamp', import.meta.url);
  return !existsSync(stamp) || newerThan(new URL('../src/', import.meta.url), statSync(stamp).mtimeMs);
}
