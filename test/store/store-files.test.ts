// store-files.ts names the store's files once: `<db>` and `<db>.*` beside it, whatever the spelling – relative, `..`,
// a symlinked folder, a symlink (even one whose target does not exist yet), a hard link to any file the store has.
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalPath, holdsDatabase, storeFileRole } from '../../src/store/store-files.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const root = tempDir('gpuledger-store-files-').dir;
const data = join(root, 'data');
const db = join(data, 'ledger.duckdb');
mkdirSync(join(data, 'ledger.duckdb.tmp'), { recursive: true });
writeFileSync(db, 'db');
writeFileSync(join(data, 'ledger.duckdb.tmp', 'duckdb_temp_block-7.block'), 'spill');
writeFileSync(join(data, 'ledger.duckdb.sync.lock'), '{}');
mkdirSync(join(root, 'other'));
symlinkSync(data, join(root, 'alias'));

describe('storeFileRole', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['ledger.duckdb', 'the database'],
    ['ledger.duckdb.writer', "the database's writer copy"],
    ['ledger.duckdb.writer.wal', "the database's writer copy"],
    ['ledger.duckdb.wal.checkpoint', "the database's write-ahead log"],
    ['ledger.duckdb.tmp/anything', "the database's temp folder"],
    ['ledger.duckdb.sync.lock', "the database's lock file"],
    ['ledger.duckdb.publish-12.tmp', 'a publish file of the database'],
    ['ledger.duckdb.schedule.json', "the scheduler's state file"],
    ['ledger.duckdb.generation-3', 'a file the database keeps (generation-3)'],
  ])('names %s beside the database as %s, present or not', (name, role) => {
    expect(storeFileRole(join(data, name), db)).toBe(role);
  });

  it('knows a path however it is spelled: relative, with .., through a symlinked folder', () => {
    expect(storeFileRole(relative(process.cwd(), join(data, 'ledger.duckdb.wal')), db)).toBe("the database's write-ahead log");
    expect(storeFileRole(join(root, 'other', '..', 'data', 'ledger.duckdb.wal'), db)).toBe("the database's write-ahead log");
    expect(storeFileRole(join(root, 'alias', 'ledger.duckdb.wal'), db)).toBe("the database's write-ahead log");
    // the database itself named through the symlinked folder
    expect(storeFileRole(join(root, 'other', 'x'), join(root, 'alias', 'ledger.duckdb'))).toBeUndefined();
    expect(storeFileRole(join(data, 'ledger.duckdb'), join(root, 'alias', 'ledger.duckdb'))).toBe('the database');
  });

  it('follows a dangling symlink: writing through it would create the store file it points at', () => {
    symlinkSync(join(data, 'ledger.duckdb.wal'), join(root, 'other', 'dangling'));
    expect(canonicalPath(join(root, 'other', 'dangling'))).toBe(join(canonicalPath(data), 'ledger.duckdb.wal'));
    expect(storeFileRole(join(root, 'other', 'dangling'), db)).toBe("the database's write-ahead log");
  });

  it('knows a hard link to any file the store has, the temp folder\'s included', () => {
    linkSync(join(data, 'ledger.duckdb.tmp', 'duckdb_temp_block-7.block'), join(root, 'other', 'block'));
    linkSync(join(data, 'ledger.duckdb.sync.lock'), join(root, 'other', 'lock'));
    expect(storeFileRole(join(root, 'other', 'block'), db)).toMatch(/^the database's temp folder \(a hard link to .*duckdb_temp_block-7\.block\)$/);
    expect(storeFileRole(join(root, 'other', 'lock'), db)).toMatch(/^the database's lock file \(a hard link to /);
  });

  it('leaves other files alone: a name that only starts like the database, a file elsewhere', () => {
    writeFileSync(join(root, 'other', 'mine.csv'), 'x');
    expect(storeFileRole(join(data, 'ledger.duckdbx'), db)).toBeUndefined();
    expect(storeFileRole(join(data, 'ledger.csv'), db)).toBeUndefined();
    expect(storeFileRole(join(root, 'other', 'mine.csv'), db)).toBeUndefined();
  });

  it('calls the database\'s folder and its ancestors folders holding it, and only those', () => {
    expect(storeFileRole(data, db)).toMatch(/^a folder holding the database /);
    expect(storeFileRole('/', db)).toMatch(/^a folder holding the database /);
    for (const folder of [data, root, join(root, 'alias'), '/']) expect(holdsDatabase(folder, db)).toBe(true);
    for (const folder of [join(root, 'other'), join(data, 'ledger.duckdb.tmp'), join(root, 'dat')]) expect(holdsDatabase(folder, db)).toBe(false);
  });
});
