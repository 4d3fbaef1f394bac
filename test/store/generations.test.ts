// The store keeps what cannot be re-fetched (issue 18 §2): each publish keeps the generation before it, a `<db>`
// written over with something that is not a gpuledger database is never adopted, and a damaged writer copy is
// rebuilt from the newest good copy beside it – each time with one line naming the damaged file and the good one.
import { DuckDBInstance } from '@duckdb/node-api';
import { closeSync, copyFileSync, existsSync, linkSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCopy } from '../../src/store/copy-check.ts';
import { storeFileRole } from '../../src/store/store-files.ts';
import { openStore } from '../../src/store/database.ts';
import { withWriter, writerPathFor } from '../../src/store/shared-database.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('generations and adoption', () => {
  let dir: string;
  let db: string;
  let warnings: string[];

  beforeEach(() => {
    dir = tempDir('gpuledger-generations-').dir;
    db = join(dir, 'ledger.duckdb');
    warnings = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m) };
  /** One writing session that records run `id` and publishes (views are not the point here). */
  const addRun = (id: string) =>
    withWriter({ dbPath: db, command: 'test', applyViews: false, log }, (s) =>
      s.run(`insert into _meta_runs (run_id, command, started_at, status) values ($1, 'test', now(), 'success')`, [id]),
    );
  const runs = async (path: string) => {
    const s = await openStore({ path, readOnly: true });
    try {
      return (await s.all<{ run_id: string }>(`select run_id from _meta_runs order by run_id`)).map((r) => r.run_id).join(',');
    } finally {
      await s.close();
    }
  };
  /** Garbage over the blocks after the file header, as a bad disk leaves it. */
  const scribble = (path: string) => {
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(256 * 1024, 0xab), 0, 256 * 1024, 8192);
    closeSync(fd);
  };
  const aside = () => readdirSync(dir).filter((n) => n.includes('.aside-')).sort();
  /** Where in the file a block holding `table`'s rows starts: DuckDB's 12 KiB of headers, then 256 KiB blocks. */
  const dataBlockOffset = async (path: string, table: string) => {
    const s = await openStore({ path, readOnly: true });
    try {
      const row = await s.one<{ block_id: string }>(`select min(block_id)::varchar as block_id from pragma_storage_info('${table}') where persistent and block_id >= 0`);
      return 12288 + Number(row!.block_id) * 262144;
    } finally {
      await s.close();
    }
  };

  it('keeps the generation before each publish as <db>.previous', async () => {
    await addRun('a');
    expect(existsSync(`${db}.previous`)).toBe(false);
    await addRun('b');
    expect(await runs(`${db}.previous`)).toBe('a');
    await addRun('c');
    expect(await runs(`${db}.previous`)).toBe('a,b');
    expect(await runs(db)).toBe('a,b,c');
    // the generations are the store's files, by name and by inode: no output may land on them
    linkSync(`${db}.previous`, join(dir, 'innocent.duckdb'));
    expect(storeFileRole(join(dir, 'innocent.duckdb'), db)).toMatch(/^the database's previous generation \(a hard link to .*ledger\.duckdb\.previous\)$/);
    expect(storeFileRole(`${db}.aside-20261120T000000000Z-writer`, db)).toBe('a copy of the database kept aside');
  });

  it('does not adopt a 6-byte file written over <db>: keeps it aside, goes on from the writer copy and says which is which', async () => {
    await addRun('a');
    await addRun('b');
    writeFileSync(db, 'x,y\n1\n'); // what `query --out <db>` did before the output guard
    await addRun('c');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ledger\.duckdb was written since the last publish and is damaged \(not a DuckDB database file, 6 bytes\), so it was not adopted: kept it as .*ledger\.duckdb\.aside-\d{8}T\d{9}Z-published and went on from the good copy .*ledger\.duckdb\.writer \(last run /);
    expect(await runs(db)).toBe('a,b,c');
    // the stray file is kept, byte for byte, and was not rotated into the previous generation
    expect(aside()).toHaveLength(1);
    expect(readFileSync(join(dir, aside()[0]!), 'utf8')).toBe('x,y\n1\n');
    expect(await runs(`${db}.previous`)).toBe('a');
  });

  it('adopts a good database written directly at <db>', async () => {
    await addRun('a');
    await new Promise((r) => setTimeout(r, 20));
    const direct = await openStore({ path: db, command: 'direct', applyViews: false });
    await direct.run(`insert into _meta_runs (run_id, command, started_at, status) values ('direct', 'test', now(), 'success')`);
    await direct.close();
    await addRun('b');
    expect(await runs(db)).toBe('a,b,direct');
    expect(warnings).toEqual([]);
  });

  it('does not adopt an older backup copied over <db>: keeps it aside, publishes the newer writer copy again and says so', async () => {
    await addRun('a');
    await addRun('b');
    copyFileSync(`${db}.previous`, db); // a restore by hand: the first generation, with a new file time
    await addRun('c');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^.*ledger\.duckdb was replaced by a copy holding older data \(newest record \S+Z\) than the writer copy \(\S+Z\): kept it as .*ledger\.duckdb\.aside-\d{8}T\d{9}Z-published and published the writer copy again; to go back to it on purpose: gpuledger store restore --from ledger\.duckdb\.aside-\d{8}T\d{9}Z-published$/,
    );
    expect(await runs(db)).toBe('a,b,c');
    expect(await runs(`${db}.previous`)).toBe('a,b');
    expect(aside()).toEqual([expect.stringMatching(/-published$/)]);
    expect(await runs(join(dir, aside()[0]!))).toBe('a');
  });

  it('does not go on from an older copy put over the writer copy: keeps it aside and goes on from <db>', async () => {
    await addRun('a');
    await addRun('b');
    copyFileSync(`${db}.previous`, writerPathFor(db));
    await addRun('c');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^the writer copy .*ledger\.duckdb\.writer holds older data \(newest record \S+Z\) than .*ledger\.duckdb \(\S+Z\) – it was replaced since the last publish: kept it as .*ledger\.duckdb\.aside-\d{8}T\d{9}Z-writer and went on from .*ledger\.duckdb; to go back to it on purpose: gpuledger store restore --from ledger\.duckdb\.aside-\S+-writer$/,
    );
    expect(await runs(db)).toBe('a,b,c');
    expect(await runs(join(dir, aside()[0]!))).toBe('a');
  });

  it('keeps a newer <db>.previous aside when both other copies were replaced by an older one, before a publish replaces it', async () => {
    await addRun('a');
    const backup = join(dir, 'backup.duckdb');
    copyFileSync(db, backup);
    await addRun('b');
    await addRun('c');
    copyFileSync(backup, writerPathFor(db));
    copyFileSync(backup, db);
    await addRun('d');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^.*ledger\.duckdb\.previous holds newer data \(newest record \S+Z\) than the copy this session goes on from \(\S+Z\): kept it as .*ledger\.duckdb\.aside-\S+-previous so no publish replaces it; gpuledger store restore --from ledger\.duckdb\.aside-\S+-previous brings it back$/);
    expect(await runs(join(dir, aside()[0]!))).toBe('a,b');
    expect(await runs(db)).toBe('a,d');
  });

  it('compares copies by what they hold, not by file time: a newer file time on older data is no newer copy', async () => {
    await addRun('a');
    await addRun('b');
    expect((await checkCopy(db)).newest! > (await checkCopy(`${db}.previous`)).newest!).toBe(true);
    copyFileSync(`${db}.previous`, join(dir, 'copied.duckdb'));
    expect((await checkCopy(join(dir, 'copied.duckdb'))).newest).toBe((await checkCopy(`${db}.previous`)).newest);
  });

  it('rebuilds a damaged writer copy from the good published copy, keeping the damaged one aside', async () => {
    await addRun('a');
    await addRun('b');
    scribble(writerPathFor(db));
    await addRun('c');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/the writer copy .*ledger\.duckdb\.writer is damaged \(.+\): kept it as .*\.aside-\d{8}T\d{9}Z-writer and recovered it from the good copy .*ledger\.duckdb \(last run /);
    expect(await runs(db)).toBe('a,b,c');
    expect(aside()).toEqual([expect.stringMatching(/-writer$/)]);
  });

  it('recovers from the previous generation when both the published and the writer copy are damaged', async () => {
    await addRun('a');
    await addRun('b');
    scribble(writerPathFor(db));
    writeFileSync(db, 'garbage');
    await addRun('c');
    // which of the two is noticed first depends on their times; either way the previous generation is the good copy
    expect(warnings.join('\n')).toMatch(/(went on|recovered it) from the good copy .*ledger\.duckdb\.previous \(last run /);
    expect(await runs(db)).toBe('a,c');
    expect(aside().map((n) => n.replace(/.*-/, '')).sort()).toEqual(['published', 'writer']);
  });

  it('never rotates a damaged <db> into <db>.previous when a bad disk left its file time as the last publish did: keeps it aside and says so', async () => {
    await addRun('a');
    // rows of their own blocks, which the next session never reads
    await withWriter({ dbPath: db, command: 'test', applyViews: false, log }, (s) => s.run(`create table notes as select range as n from range(100000)`));
    await addRun('b');
    // a bad disk under both copies: blocks after the header change, the file times do not, and the writer copy still
    // opens (the damaged block is read only by a full read)
    for (const path of [db, writerPathFor(db)]) {
      const at = await dataBlockOffset(path, 'notes');
      const { atime, mtime } = statSync(path);
      const fd = openSync(path, 'r+');
      writeSync(fd, Buffer.alloc(64, 0xab), 0, 64, at + 100);
      closeSync(fd);
      utimesSync(path, atime, mtime);
    }
    expect((await checkCopy(db)).state).toBe('damaged');
    await addRun('c');
    expect(warnings.join('\n')).toMatch(/ledger\.duckdb is not a good gpuledger database \(.+\); kept it as .*ledger\.duckdb\.aside-\d{8}T\d{9}Z-published/);
    expect(aside()).toEqual([expect.stringMatching(/-published$/)]);
    // the generation kept is still the good one: the damaged file did not take its place
    expect((await checkCopy(`${db}.previous`)).state).toBe('good');
    expect(await runs(`${db}.previous`)).toBe('a');
  });

  it('refuses to go on when no copy is good, naming every damaged file', async () => {
    await addRun('a');
    scribble(writerPathFor(db));
    writeFileSync(db, 'garbage');
    const error = await addRun('b').then(() => undefined, (e: Error) => e.message);
    expect(error).toMatch(/^no good copy of .*ledger\.duckdb: .*; gpuledger store check lists them/);
    expect(error).toMatch(/ledger\.duckdb \(not a DuckDB database file, 7 bytes\)/);
    expect(error).toMatch(/ledger\.duckdb\.writer \(IO Error: Corrupt database file: computed checksum/);
    expect(aside()).toEqual([]); // nothing moved: a person decides
  });

  it('never adopts a database of a newer gpuledger, and moves nothing', async () => {
    await addRun('a');
    const direct = await openStore({ path: db, command: 'direct', applyViews: false });
    await direct.run(`insert into _meta_schema_version (version, name) values (999, 'future')`);
    await direct.close();
    await expect(addRun('b')).rejects.toThrow(/has schema version 999, newer than this gpuledger knows \(\d+\); upgrade gpuledger/);
    expect((await checkCopy(db)).state).toBe('newer');
    expect(aside()).toEqual([]);
  });

  it('tells a good copy from a damaged, a truncated and a foreign one', async () => {
    await addRun('a');
    expect(await checkCopy(db)).toMatchObject({ state: 'good', schemaVersion: expect.any(Number), lastRun: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const foreign = join(dir, 'other.duckdb');
    const instance = await DuckDBInstance.create(foreign);
    const c = await instance.connect();
    await c.run('create table notes (x integer); insert into notes values (1)');
    c.closeSync();
    instance.closeSync();
    expect(await checkCopy(foreign)).toMatchObject({ state: 'foreign', problem: 'not a gpuledger database (no _meta_schema_version)' });
    copyFileSync(db, `${db}.cut`);
    truncateSync(`${db}.cut`, Math.floor(statSync(db).size / 2));
    expect(await checkCopy(`${db}.cut`)).toMatchObject({ state: 'damaged', problem: expect.stringMatching(/\S/) });
    scribble(db);
    expect(await checkCopy(db)).toMatchObject({ state: 'damaged', problem: expect.stringMatching(/\S/) });
  });
});

describe('a writer copy found damaged in the middle of a session', () => {
  it('publishes nothing over the good <db> and names the writer copy, with the way back', async () => {
    const dir = tempDir('gpuledger-midsession-').dir;
    const db = join(dir, 'ledger.duckdb');
    try {
      const options = { dbPath: db, command: 'test', applyViews: false };
      await withWriter(options, (s) =>
        s.run(`insert into _meta_runs (run_id, command, started_at, status) select 'r' || i, 'test', now(), 'success' from range(200000) t(i)`),
      );
      const published = readFileSync(db);
      const error = await withWriter(options, async (s) => {
        // a bad disk under a running session: every block after the header, then a read that must fetch them
        const size = statSync(writerPathFor(db)).size;
        const fd = openSync(writerPathFor(db), 'r+');
        writeSync(fd, Buffer.alloc(size - 12288, 0xab), 0, size - 12288, 12288);
        closeSync(fd);
        await s.run(`select count(*), bit_xor(hash(t)) from _meta_runs t`);
      }).then(() => undefined, (e: Error) => e.message);
      expect(error).toMatch(/^the writer copy .*ledger\.duckdb\.writer is damaged \(.+\); nothing was published from it; gpuledger store check lists the good copies and gpuledger store restore brings back the newest$/);
      expect(readFileSync(db).equals(published)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
