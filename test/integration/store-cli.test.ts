// The store keeps what cannot be re-fetched (issue 18 §2), as a user meets it on the command line: a 6-byte file
// written over the database is not adopted by the next sync (the writer copy survives, the sync works and says which
// file is which), `store check` tells which copies are good, and `store restore` brings back the newest good one –
// or the one asked for – keeping every copy it replaces aside.
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.ts';
import { acquireSyncLock } from '../../src/store/lock.ts';
import { openStore } from '../../src/store/database.ts';
import { gpuledger, type CliResult } from '../helpers/cli.ts';
import { fastSimulator, KEY, smallSyncConfig, writeConfig } from '../helpers/sync.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';

/** The rows of `--format ndjson` output. */
function rowsOf(r: CliResult): Record<string, string>[] {
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
}

/** Garbage over the blocks after the file header, as a bad disk leaves it. */
function scribble(path: string): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(256 * 1024, 0xab), 0, 256 * 1024, 8192);
  closeSync(fd);
}

describe('the store on the command line', () => {
  let sim: Simulator;
  let tmp: TempDir;
  let config: string;
  let pristine: string;
  let db: string;

  const run = (args: string[]) => gpuledger(['--config', config, '--db', db, ...args], { GPULEDGER_TEST_KEY: KEY });
  const runIds = async (path: string) => {
    const s = await openStore({ path, readOnly: true });
    try {
      return (await s.all<{ run_id: string }>(`select run_id from _meta_runs order by started_at`)).map((r) => r.run_id);
    } finally {
      await s.close();
    }
  };
  /** How many balance observations a copy holds: data only the database keeps. */
  const balances = async (path: string) => {
    const s = await openStore({ path, readOnly: true });
    try {
      return (await s.one<{ n: string }>(`select count(*)::varchar as n from raw_balance_observations`))!.n;
    } finally {
      await s.close();
    }
  };
  const asideFiles = () => readdirSync(join(tmp.dir, 'data')).filter((n) => n.includes('.aside-') && !n.endsWith('.wal')).sort();

  beforeAll(async () => {
    sim = await fastSimulator();
    tmp = tempDir('gpuledger-store-cli-');
    config = writeConfig(tmp.dir, { ...smallSyncConfig(sim), sync: { start: 'P5D' } });
    // two real syncs, so there is a published copy, a writer copy and a previous generation; kept to start each test from
    pristine = join(tmp.dir, 'pristine');
    mkdirSync(pristine);
    db = join(pristine, 'ledger.duckdb');
    // balance too: its observations are data only the database keeps (the platform tells only today's balance)
    for (let i = 0; i < 2; i++) expect((await run(['sync', '--source', 'aggregate,pods,balance'])).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    tmp?.cleanup();
  });
  beforeEach(() => {
    rmSync(join(tmp.dir, 'data'), { recursive: true, force: true });
    mkdirSync(join(tmp.dir, 'data'));
    // copied with their times, as `cp -p` would: which copy is newer is part of the state
    for (const n of readdirSync(pristine)) {
      copyFileSync(join(pristine, n), join(tmp.dir, 'data', n));
      const { atime, mtime } = statSync(join(pristine, n));
      utimesSync(join(tmp.dir, 'data', n), atime, mtime);
    }
    db = join(tmp.dir, 'data', 'ledger.duckdb');
  });

  it('a sync does not adopt a 6-byte file written over the database: the writer copy survives, the sync works and names both files', async () => {
    const before = await runIds(`${db}.writer`);
    writeFileSync(db, 'x,y\n1\n');
    const r = await run(['sync', '--source', 'aggregate']);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => / warn /.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ledger\.duckdb was written since the last publish and is damaged \(not a DuckDB database file, 6 bytes\), so it was not adopted: kept it as .*ledger\.duckdb\.aside-\S+-published and went on from the good copy .*ledger\.duckdb\.writer \(last run /);
    expect(readFileSync(join(tmp.dir, 'data', asideFiles()[0]!), 'utf8')).toBe('x,y\n1\n');
    // the published database holds every earlier run and this one, and the next sync is an ordinary one
    const after = await runIds(db);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
    const next = await run(['sync', '--source', 'aggregate']);
    expect(next.code).toBe(0);
    expect(next.stderr).not.toMatch(/ warn /);
  });

  it('a backup copied over the database by hand: store check names the newer writer copy, store restore brings it back and keeps the backup aside', async () => {
    const newer = await runIds(`${db}.writer`);
    const newerBalances = await balances(`${db}.writer`);
    expect(newer).toHaveLength(2);
    copyFileSync(`${db}.previous`, db); // the first generation, with a new file time
    const older = await runIds(db);
    expect(older).toHaveLength(1);
    // the second sync's balance observation is only in the newer copies
    expect(Number(newerBalances)).toBeGreaterThan(Number(await balances(db)));

    const check = await run(['store', 'check', '--format', 'table']);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/newest good copy: .*ledger\.duckdb\.writer \(writer\)/);
    expect(check.stdout).toMatch(/ledger\.duckdb \(published\) holds older data than .*ledger\.duckdb\.writer \(newest record \S+Z against \S+Z\); gpuledger store restore brings the newest back, keeping it aside/);
    const rows = rowsOf(await run(['store', 'check', '--format', 'ndjson']));
    expect(rows.map((x) => [x.copy, x.state])).toEqual([['writer', 'good (newest)'], ['published', 'good'], ['previous', 'good']]);
    expect(rows[0]!.newest_record! > rows[1]!.newest_record!).toBe(true);

    const restore = await run(['store', 'restore']);
    expect(restore.code).toBe(0);
    expect(restore.stderr).not.toMatch(/nothing to restore/);
    expect(restore.stderr).toMatch(/kept the published copy .*ledger\.duckdb \(good, newest record \S+Z\) as .*ledger\.duckdb\.aside-\S+-published/);
    expect(restore.stderr).toMatch(/restored .*ledger\.duckdb\.writer \(writer, last run .*, newest record \S+Z\) and published it as .*ledger\.duckdb/);
    expect(await runIds(db)).toEqual(newer);
    expect(await balances(db)).toBe(newerBalances);
    expect(await runIds(join(tmp.dir, 'data', asideFiles()[0]!))).toEqual(older);
  });

  it('a sync after a backup copied over the database goes on from the newer writer copy, keeps the backup aside and says so in one line', async () => {
    const newer = await runIds(`${db}.writer`);
    const newerBalances = await balances(`${db}.writer`);
    copyFileSync(`${db}.previous`, db);
    const r = await run(['sync', '--source', 'aggregate']);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => / warn /.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ledger\.duckdb was replaced by a copy holding older data \(newest record \S+Z\) than the writer copy \(\S+Z\): kept it as .*ledger\.duckdb\.aside-\S+-published and published the writer copy again; to go back to it on purpose: gpuledger store restore --from ledger\.duckdb\.aside-\S+-published$/);
    const after = await runIds(db);
    expect(after.slice(0, newer.length)).toEqual(newer);
    expect(after).toHaveLength(newer.length + 1);
    expect(Number(await balances(db))).toBeGreaterThanOrEqual(Number(newerBalances));
  });

  it('a sync after an older copy put over the writer copy goes on from the database, keeping the older copy aside', async () => {
    const newer = await runIds(db);
    copyFileSync(`${db}.previous`, `${db}.writer`);
    const r = await run(['sync', '--source', 'aggregate']);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => / warn /.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/the writer copy .*ledger\.duckdb\.writer holds older data \(newest record \S+Z\) than .*ledger\.duckdb \(\S+Z\) – it was replaced since the last publish: kept it as .*-writer and went on from .*ledger\.duckdb; /);
    const after = await runIds(db);
    expect(after.slice(0, newer.length)).toEqual(newer);
    expect(after).toHaveLength(newer.length + 1);
  });

  it('store check lists each copy with its state, last run and data, and exits 0 while one is good', async () => {
    const r = await run(['store', 'check', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    const rows = rowsOf(r);
    expect(rows.map((x) => [x.copy, x.state])).toEqual([
      ['writer', 'good (newest)'],
      ['published', 'good'],
      ['previous', 'good'],
    ]);
    for (const row of rows) {
      expect(row.last_run).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(row.data_through).toMatch(/^2026-11-20T/);
      expect(row.schema).toBeGreaterThan(0);
    }
  });

  it('store check names what is wrong with damaged copies, and exits 1 when none is good', async () => {
    scribble(`${db}.writer`);
    writeFileSync(db, 'oops');
    let r = await run(['store', 'check', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    expect(rowsOf(r).map((x) => [x.copy, x.state])).toEqual([
      ['writer', 'damaged'],
      ['published', 'damaged'],
      ['previous', 'good (newest)'],
    ]);
    expect(rowsOf(r)[1]!.problem).toBe('not a DuckDB database file, 4 bytes');
    scribble(`${db}.previous`);
    r = await run(['store', 'check', '--format', 'table']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/no good copy/);
    const restore = await run(['store', 'restore']);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/^gpuledger: no good copy of ledger\.duckdb to restore: ledger\.duckdb\.writer \(.*\), ledger\.duckdb \(not a DuckDB database file, 4 bytes\), ledger\.duckdb\.previous \(.*\); move them aside and run gpuledger sync to rebuild from the platform/);
    expect(restore.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('store restore brings back the previous generation after a bad write, keeping the damaged copies aside', async () => {
    const previous = await runIds(`${db}.previous`);
    scribble(`${db}.writer`);
    writeFileSync(db, 'oops');
    const r = await run(['store', 'restore']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/kept the writer copy .*ledger\.duckdb\.writer \(damaged\) as .*ledger\.duckdb\.aside-\S+-writer/);
    expect(r.stderr).toMatch(/kept the published copy .*ledger\.duckdb \(damaged\) as .*ledger\.duckdb\.aside-\S+-published/);
    expect(r.stderr).toMatch(/restored .*ledger\.duckdb\.previous \(previous, last run .*\) and published it as .*ledger\.duckdb/);
    expect(asideFiles().map((n) => n.replace(/.*-/, '')).sort()).toEqual(['published', 'writer']);
    expect(await runIds(db)).toEqual(previous);
    expect(await runIds(`${db}.writer`)).toEqual(previous);
    expect(await runIds(`${db}.previous`)).toEqual(previous);
    // every copy is good again, and the next sync goes on from the restored state
    expect(rowsOf(await run(['store', 'check', '--format', 'ndjson'])).map((x) => x.state)).toEqual(['good (newest)', 'good', 'good', 'damaged', 'damaged']);
    expect((await run(['sync', '--source', 'aggregate'])).code).toBe(0);
    expect((await runIds(db)).slice(0, previous.length)).toEqual(previous);
  });

  it('store restore with nothing damaged says so and changes nothing; --from previous rolls back, keeping the newer copies aside', async () => {
    const published = await runIds(db);
    const none = await run(['store', 'restore']);
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/nothing to restore: the newest good copy .*ledger\.duckdb\.writer/);
    expect(asideFiles()).toEqual([]);
    const previous = await runIds(`${db}.previous`);
    const back = await run(['store', 'restore', '--from', 'previous']);
    expect(back.code).toBe(0);
    expect(await runIds(db)).toEqual(previous);
    // the rolled-back copies are kept, good as they were
    const kept = asideFiles();
    expect(kept).toHaveLength(2);
    expect(await runIds(join(tmp.dir, 'data', kept.find((n) => n.endsWith('-published'))!))).toEqual(published);
  });

  it('store restore --from names the copies it accepts, and refuses a damaged one', async () => {
    const unknown = await run(['store', 'restore', '--from', 'yesterday']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^gpuledger: --from yesterday: no such copy or file; pick writer, published, previous, a copy set aside \(none yet\) or a backup file\n$/);
    scribble(`${db}.previous`);
    const damaged = await run(['store', 'restore', '--from', 'previous']);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(/^gpuledger: --from previous: ledger\.duckdb\.previous is not a good copy \(.+\); gpuledger store check lists the good ones\n$/);
  });

  it('store restore --from FILE brings back a backup kept elsewhere, which stays where it was', async () => {
    const backup = join(tmp.dir, 'backup.duckdb');
    copyFileSync(`${db}.previous`, backup);
    const previous = await runIds(backup);
    writeFileSync(db, 'oops');
    const r = await run(['store', 'restore', '--from', backup]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/restored .*backup\.duckdb \(backup, last run .*\) and published it/);
    expect(await runIds(db)).toEqual(previous);
    expect(await runIds(backup)).toEqual(previous);
    expect(asideFiles().map((n) => n.replace(/.*-/, '')).sort()).toEqual(['published', 'writer']);
  });

  it('store restore waits for no sync: it is refused while one runs, naming it', async () => {
    const lock = await acquireSyncLock(db, { command: 'sync' });
    try {
      const r = await run(['store', 'restore']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^gpuledger: another gpuledger process \(pid \d+, sync since .*\) is syncing .*; try again later or pass --wait SECONDS\n$/);
    } finally {
      lock.release();
    }
  });

  it('a reader of a damaged database with good copies beside it is told to check and restore', async () => {
    writeFileSync(db, 'oops');
    const r = await run(['query', 'select 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gpuledger: database .*ledger\.duckdb is damaged \(.*\); gpuledger store check tells which copy beside it is good, and gpuledger store restore puts the newest good one back\n$/);
  });
});
