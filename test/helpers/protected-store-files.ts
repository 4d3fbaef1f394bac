// The store's files laid out beside a database for the output-guard tests: every kind of file the store keeps
// (store-files.ts) with what a refusal must call it, and each one reachable in four spellings – plainly, through
// `elsewhere/..`, through a symlink and as a hard link – so a test can aim an output at any of them.
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DB_NAME = 'ledger.duckdb';

export const PROTECTED: ReadonlyArray<readonly [suffix: string, role: RegExp]> = [
  ['', /the database/],
  ['.writer', /the database's writer copy/],
  ['.wal', /the database's write-ahead log/],
  ['.wal.recovery', /the database's write-ahead log/],
  ['.wal.checkpoint', /the database's write-ahead log/],
  ['.tmp/duckdb_temp_block-1.block', /the database's temp folder/],
  ['.lock', /the database's lock file/],
  ['.sync.lock', /the database's lock file/],
  ['.publish-4242.tmp', /a publish file of the database/],
];

export type Spelling = 'plain' | 'dot-dot' | 'symlink' | 'hard link';
export const SPELLINGS: readonly Spelling[] = ['plain', 'dot-dot', 'symlink', 'hard link'];

/** The path to the protected file in one spelling, relative to the database's folder (join it for an absolute one). */
export function spelled(suffix: string, how: Spelling): string {
  const name = `${DB_NAME}${suffix}`;
  const flat = name.replace(/\//g, '_');
  switch (how) {
    case 'plain':
      return name;
    case 'dot-dot':
      return join('elsewhere', '..', name);
    case 'symlink':
      return join('links', `${flat}.symlink`);
    case 'hard link':
      return join('links', `${flat}.hard`);
  }
}

export const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Writes every protected file but the database itself (which the caller makes) into `dir`, with its symlink and
 * hard link, and returns each file's digest – call it once the database exists.
 */
export function layOutStoreFiles(dir: string): Map<string, string> {
  mkdirSync(join(dir, 'elsewhere'), { recursive: true });
  mkdirSync(join(dir, 'links'), { recursive: true });
  mkdirSync(join(dir, `${DB_NAME}.tmp`), { recursive: true });
  const bytes = new Map<string, string>();
  for (const [suffix] of PROTECTED) {
    const path = join(dir, `${DB_NAME}${suffix}`);
    if (suffix !== '') writeFileSync(path, `protected ${suffix}\n`);
    bytes.set(path, digest(path));
    symlinkSync(path, join(dir, spelled(suffix, 'symlink')));
    linkSync(path, join(dir, spelled(suffix, 'hard link')));
  }
  return bytes;
}
