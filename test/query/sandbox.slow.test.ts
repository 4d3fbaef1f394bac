// `gpuledger query` is a sandbox (issue 11 item 4): no statement writes to the database or any file, and no file
// but the database is read, unless --allow-read grants it. Every escape found in the issue and a few more are tried
// through the real CLI on a real database file; each must exit 2 with one line, leave the database byte for byte
// and mtime for mtime as it was, and create no file.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openForReading } from '../../src/query/open-database.ts';
import { enterSandbox, NO_GRANTS } from '../../src/query/sandbox.ts';
import { billPods, tmpDbPath, viewStore } from '../helpers/view-store.ts';
import { gpuledger } from '../helpers/cli.ts';

interface Snapshot {
  sha256: string;
  mtimeMs: number;
  files: string[];
}

function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('gpuledger query sandbox', () => {
  let db: string;
  let dir: string;
  let allowed: string;
  let outside: string;

  const snapshot = (): Snapshot => ({
    sha256: createHash('sha256').update(readFileSync(db)).digest('hex'),
    mtimeMs: statSync(db).mtimeMs,
    files: listTree(dir),
  });

  beforeAll(async () => {
    db = tmpDbPath('gpuledger-sandbox-');
    dir = dirname(db);
    const store = await viewStore(db);
    await billPods(store, [{ pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '16.560000' }]);
    await store.close();
    allowed = join(dir, 'allowed');
    mkdirSync(allowed);
    writeFileSync(join(allowed, 'teams.csv'), 'pod_id,team\np1,vision\n');
    outside = join(dir, 'secret.csv');
    writeFileSync(outside, 'pod_id,team\np1,leaked\n');
    // DuckDB's temp folder beside the database, as a query that spilled to disk leaves it
    mkdirSync(`${db}.tmp`);
    writeFileSync(join(`${db}.tmp`, 'spill.bin'), 'spilled rows\n');
  });

  async function expectRefused(sql: string, extra: string[] = [], message?: RegExp): Promise<void> {
    const before = snapshot();
    const r = await gpuledger(['--db', db, 'query', sql, ...extra, '--format', 'csv']);
    expect(r.code, sql).toBe(2);
    expect(r.stdout, sql).toBe('');
    expect(r.stderr.trimEnd().split('\n'), sql).toHaveLength(1);
    expect(r.stderr, sql).toMatch(message ?? /^gpuledger: query (runs read-only SQL only|reads only the database)/);
    expect(snapshot(), sql).toEqual(before);
  }

  // Without --allow-read the whole local file system is off, and DuckDB then names no path: "would read or write a file".
  const ANY_FILE = /would read or write a file – to read a local file, pass --allow-read/;
  it.each([
    // the escapes reported in issue 11
    ["explain analyze copy (select 'x') to '$DB' (format csv)", ANY_FILE],
    ["select * from read_text('/etc/passwd')", ANY_FILE],
    ['select * from read_csv($OUTSIDE)', ANY_FILE],
    ["select * from glob('/*')", ANY_FILE],
    ["export database '$DIR/export'", ANY_FILE],
    // and more
    ["copy (select 1) to '$DIR/leak.csv'", ANY_FILE],
    ["copy raw_billing_pods from '$DIR/secret.csv'", undefined],
    ["attach '$DIR/other.duckdb' as other", /statement is ATTACH/],
    ['install httpfs', /statement is INSTALL\/LOAD/],
    ['load httpfs', /statement is INSTALL\/LOAD/],
    ['set enable_external_access = true', /statement is SET/],
    ['reset lock_configuration', /statement is SET/],
    ["set allowed_directories = ['/']", /statement is SET/],
    ["pragma profiling_output = '$DIR/profile.json'", /statement is (PRAGMA|SET)/],
    ['pragma enable_profiling', /statement is PRAGMA/],
    ["explain analyze insert into raw_billing_pods select * from raw_billing_pods", /statement is EXPLAIN of INSERT/],
    ['explain analyze delete from raw_billing_pods', /statement is EXPLAIN of DELETE/],
    ['select 1; delete from raw_billing_pods', /statement 2 of 2 is DELETE/],
    ['create temp table t as select 1', /statement is CREATE/],
    ['set variable gpuledger_as_of = now()', /statement is SET/],
    ['checkpoint', /statement is CALL/],
    // issue 18 §3: DuckDB lets a statement at the database's own side files even with external access off
    ["explain analyze copy (select 'x') to '$DB.wal' (format csv)", ANY_FILE],
    ["explain analyze copy (select 'x') to '$DB.wal.recovery' (format csv)", ANY_FILE],
    ["explain analyze copy (select 'x') to '$DB.wal.checkpoint' (format csv)", ANY_FILE],
    ["explain analyze copy (select 'x') to '$DB.tmp/x.csv' (format csv)", ANY_FILE],
    ["select * from read_text('$DB.tmp/spill.bin')", ANY_FILE],
    ["select * from glob('$DB.tmp/*')", ANY_FILE],
    ["select * from read_blob('$DB.wal')", ANY_FILE],
    ["select * from read_blob('$DB')", ANY_FILE],
    // and EXPLAIN (ANALYZE) of anything that is not a query, by DuckDB's own parse of what it wraps
    ['explain analyze set variable gpuledger_as_of = now()', /statement is EXPLAIN of SET/],
    ['explain analyze create temp table t as select 1', /statement is EXPLAIN of CREATE/],
    ['EXPLAIN (ANALYZE) /* select 1 */ create temp table t as select 1', /statement is EXPLAIN of CREATE/],
    ['explain analyze load json', /statement is EXPLAIN of INSTALL\/LOAD/],
    ['select 1; explain analyze select 1', /statement 2 of 2 is EXPLAIN among other statements/],
  ])('refuses %s and leaves the database and the folder unchanged', async (template, message) => {
    const sql = template.replaceAll('$DB', db).replaceAll('$DIR', dir).replaceAll('$OUTSIDE', `'${outside}'`);
    await expectRefused(sql, [], message);
  });

  it('lets --allow-read FOLDER join a local CSV, and nothing outside that folder', async () => {
    const join_ = `select c.resource_id, t.team, sum(c.amount) as amount
      from cost c join read_csv('${join(allowed, 'teams.csv')}') t on t.pod_id = c.resource_id group by all`;
    const r = await gpuledger(['--db', db, 'query', join_, '--allow-read', allowed, '--format', 'csv']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe('resource_id,team,amount\r\np1,vision,16.560000\r\n');

    await expectRefused(`select * from read_csv('${outside}')`, ['--allow-read', allowed], /would read or write .*secret\.csv/);
    // `..` and a look-alike sibling folder do not get out of the grant
    await expectRefused(`select * from read_csv('${join(allowed, '..', 'secret.csv')}')`, ['--allow-read', allowed]);
    mkdirSync(`${allowed}-not`, { recursive: true });
    writeFileSync(join(`${allowed}-not`, 'x.csv'), 'a\n1\n');
    await expectRefused(`select * from read_csv('${join(`${allowed}-not`, 'x.csv')}')`, ['--allow-read', allowed]);
  });

  it('lets --allow-read FILE read that one file only', async () => {
    const ok = await gpuledger(['--db', db, 'query', `select team from read_csv('${outside}')`, '--allow-read', outside, '--format', 'csv']);
    expect(ok).toMatchObject({ code: 0, stdout: 'team\r\nleaked\r\n' });
    await expectRefused(`select * from read_csv('${join(allowed, 'teams.csv')}')`, ['--allow-read', outside]);
  });

  it('writes nothing into a granted folder: COPY and EXPLAIN are refused there', async () => {
    await expectRefused(`copy (select 1) to '${join(allowed, 'w.csv')}'`, ['--allow-read', allowed], /statement is COPY/);
    await expectRefused(`explain analyze copy (select 1) to '${join(allowed, 'w.csv')}'`, ['--allow-read', allowed], /EXPLAIN, which is not available with --allow-read/);
    expect(readdirSync(allowed)).toEqual(['teams.csv']);
  });

  it('keeps the store\'s side files out of reach with --allow-read too: no temp folder, no writing statement, no EXPLAIN', async () => {
    await expectRefused(`select * from read_text('${db}.tmp/spill.bin')`, ['--allow-read', allowed], /would read or write .*\.tmp\/spill\.bin/);
    await expectRefused(`copy (select 'x') to '${db}.wal' (format csv)`, ['--allow-read', allowed], /statement is COPY/);
    await expectRefused(`explain analyze copy (select 'x') to '${db}.wal' (format csv)`, ['--allow-read', allowed], /EXPLAIN, which is not available with --allow-read/);
  });

  it('refuses a grant that is, or holds, one of the store\'s files', async () => {
    for (const [grant, role] of [
      [`${db}.tmp`, "the database's temp folder"],
      [dir, 'a folder holding the database'],
      [db, 'the database'],
    ] as const) {
      const before = snapshot();
      const r = await gpuledger(['--db', db, 'query', 'select 1', '--allow-read', grant]);
      expect(r, grant).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr.trimEnd().split('\n'), grant).toHaveLength(1);
      expect(r.stderr, grant).toContain(`--allow-read: ${grant} is ${role}`);
      expect(snapshot(), grant).toEqual(before);
    }
  });

  it('still explains and profiles a query when nothing is granted', async () => {
    const r = await gpuledger(['--db', db, 'query', 'explain analyze select count(*) from cost', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('analyzed_plan');
  });

  it('names a missing --allow-read path', async () => {
    const r = await gpuledger(['--db', db, 'query', 'select 1', '--allow-read', join(dir, 'nope')]);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^gpuledger: --allow-read: .*nope does not exist; it takes a file or a folder/);
  });

  it('holds with DuckDB alone: a sandboxed connection cannot unlock, read or write files whatever the statement', async () => {
    const store = await openForReading(db);
    try {
      await enterSandbox(store.connection, NO_GRANTS);
      for (const sql of [
        'set enable_external_access = true',
        "set allowed_directories = ['/']",
        'set lock_configuration = false',
        "select * from read_text('/etc/passwd')",
        `copy (select 1) to '${join(dir, 'direct.csv')}'`,
        `copy (select 1) to '${db}.wal'`,
        `select * from read_text('${db}.tmp/spill.bin')`,
        `select * from read_blob('${db}')`,
        "insert into raw_billing_pods select * from raw_billing_pods",
      ]) {
        await expect(store.connection.run(sql), sql).rejects.toThrow(/Permission Error|configuration has been locked|read-only/);
      }
    } finally {
      await store.close();
    }
    expect(listTree(dir)).not.toContain('direct.csv');
    expect(listTree(dir)).not.toContain(`${basename(db)}.wal`);
  });
});
