// The output guard and the atomic writer (src/outputs/), in-process: what a file output and a folder output may be,
// temporary names that never fall under the store's names, and a folder never replaced by a file; every kind of store
// file in every spelling against each check. The CLI side – every flag in every spelling – is
// protected-outputs.slow.test.ts.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTemporaryName, moveIntoPlace, temporaryBeside, writeFileAtomic } from '../../src/outputs/atomic-file.ts';
import { checkFileOutput, checkFolderOutput, OutputRefusedError } from '../../src/outputs/output-guard.ts';
import { storeFileRole } from '../../src/store/store-files.ts';
import { exitCodeOf } from '../../src/util/errors.ts';
import { DB_NAME, digest, layOutStoreFiles, PROTECTED, spelled, SPELLINGS } from '../helpers/protected-store-files.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const root = tempDir('gpuledger-guard-').dir;
const db = join(root, 'ledger.duckdb');
writeFileSync(db, 'db');

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(OutputRefusedError);
    expect(exitCodeOf(e)).toBe(2);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('output guard', () => {
  it('refuses a file output that is a store file, naming the flag, the path and what it is', () => {
    expect(refusal(() => checkFileOutput({ flag: '--out', path: db, dbPath: db }))).toBe(`--out ${db} is the database; pick another file`);
  });

  it('refuses a symlink whose target does not exist yet when that target is a store file (an append would create it)', () => {
    symlinkSync(`${db}.wal`, join(root, 'alerts.ndjson'));
    expect(refusal(() => checkFileOutput({ flag: 'config alerts.channels[0].path', path: join(root, 'alerts.ndjson'), dbPath: db }))).toMatch(
      /^config alerts\.channels\[0\]\.path .*alerts\.ndjson is the database's write-ahead log; pick another file$/,
    );
  });

  it('accepts a new file beside the database and returns the path it checked', () => {
    expect(checkFileOutput({ flag: '--out', path: join(root, 'result.csv'), dbPath: db })).toMatch(/result\.csv$/);
  });

  it('refuses a file output under a file, and a folder output that is a file', () => {
    expect(refusal(() => checkFileOutput({ flag: '--out', path: join(db, 'x.csv'), dbPath: join(root, 'other.duckdb') }))).toMatch(/ledger\.duckdb is a file, so the file cannot be created there/);
    writeFileSync(join(root, 'plain'), 'x');
    expect(refusal(() => checkFolderOutput({ flag: '--out-dir', path: join(root, 'plain'), dbPath: db }, { mayHoldDatabase: true }))).toMatch(/plain is a file; pass a folder$/);
  });

  it('lets workbooks go into the database\'s folder but never a lake', () => {
    expect(checkFolderOutput({ flag: '--out-dir', path: root, dbPath: db }, { mayHoldDatabase: true })).toBeTruthy();
    expect(refusal(() => checkFolderOutput({ flag: '--out', path: root, dbPath: db }, { mayHoldDatabase: false }))).toMatch(/is a folder holding the database .*ledger\.duckdb; pick another folder$/);
    expect(refusal(() => checkFolderOutput({ flag: '--out-dir', path: `${db}.tmp`, dbPath: db }, { mayHoldDatabase: true }))).toMatch(/is the database's temp folder; pick another folder$/);
  });
});

describe('every store file in every spelling', () => {
  const dir = join(root, 'store');
  const dbPath = join(dir, DB_NAME);
  mkdirSync(dir);
  writeFileSync(dbPath, 'db');
  const bytes = layOutStoreFiles(dir);
  const checks = [
    ['a file output', (path: string) => checkFileOutput({ flag: '--out', path, dbPath }), 'file'],
    ['a folder it owns whole', (path: string) => checkFolderOutput({ flag: '--out', path, dbPath }, { mayHoldDatabase: false }), 'folder'],
    ['a folder it adds to', (path: string) => checkFolderOutput({ flag: '--out-dir', path, dbPath }, { mayHoldDatabase: true }), 'folder'],
  ] as const;
  const rows = PROTECTED.flatMap(([suffix, role]) => SPELLINGS.flatMap((how) => checks.map(([what, check, pick]) => ({ suffix, role, how, what, check, pick }))));
  it.each(rows.map((r) => [`<db>${r.suffix} (${r.how}) as ${r.what}`, r] as const))('%s is refused, naming what it is', (_, { suffix, role, how, check, pick }) => {
    const path = join(dir, spelled(suffix, how));
    const message = refusal(() => check(path));
    expect(message.startsWith(`${path} is `) || message.includes(` ${path} is `)).toBe(true);
    expect(message).toMatch(role);
    expect(message).toMatch(new RegExp(`; pick another ${pick}$`));
    if (how === 'hard link') expect(message).toMatch(/\(a hard link to /);
  });

  it('read nothing into the store\'s files', () => {
    for (const [path, hash] of bytes) expect(`${path} ${digest(path)}`).toBe(`${path} ${hash}`);
  });
});

describe('atomic writes', () => {
  it('names temporary files clear of the store, even when the database\'s own name starts like one', () => {
    for (const name of ['.result.csv', '.gpuledger-tmp-', `.gpuledger-tmp-${process.pid}`, 'gpuledger-tmp-', 'result.csv']) {
      const dbPath = join(root, name);
      for (let i = 0; i < 3; i++) {
        const tmp = temporaryBeside(join(root, 'result.csv'), dbPath);
        expect(storeFileRole(tmp, dbPath)).toBeUndefined();
        expect(isTemporaryName(tmp.slice(root.length + 1))).toBe(true);
      }
    }
  });

  it('replaces a file whole and leaves no temporary file behind', () => {
    const target = join(root, 'out.csv');
    writeFileAtomic(target, 'old\n', db);
    writeFileAtomic(target, 'new\n', db);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readdirSync(root).filter(isTemporaryName)).toEqual([]);
  });

  it('never replaces a folder with a file', () => {
    const folder = join(root, 'folder.csv');
    mkdirSync(folder);
    writeFileSync(join(folder, 'keep'), 'x');
    const tmp = temporaryBeside(folder, db);
    writeFileSync(tmp, 'y');
    expect(refusal(() => moveIntoPlace(tmp, folder))).toMatch(/became a folder while it was being written; nothing was replaced/);
    expect(readdirSync(folder)).toEqual(['keep']);
    expect(readdirSync(root).filter(isTemporaryName)).toEqual([]);
  });
});
