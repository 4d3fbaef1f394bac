import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isTemporaryName } from '../../src/outputs/atomic-file.ts';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addInventory, billPods, tmpDbPath, viewStore } from '../helpers/view-store.ts';
import { gpuledger } from '../helpers/cli.ts';

describe('gpuledger query', () => {
  let db: string;
  beforeAll(async () => {
    db = tmpDbPath('gpuledger-query-');
    const store = await viewStore(db);
    await addInventory(store, [{ kind: 'pod', id: 'p1', doc: { name: 'svc, "quoted"' } }]);
    await billPods(store, [
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '16.560000', disk: '0.100000' },
      { pod: 'p2', start: '2026-10-01T00:00:00Z', gpu: '0.000001' },
    ]);
    await store.close();
  });

  const sql = `select resource_id, resource_name, sum(amount) as amount, count(*) as n from cost group by all order by 1`;

  it('prints exact money in every format', async () => {
    const csv = await gpuledger(['--db', db, 'query', sql, '--format', 'csv']);
    expect(csv).toMatchObject({ code: 0, stderr: '' });
    expect(csv.stdout).toBe('resource_id,resource_name,amount,n\r\np1,"svc, ""quoted""",16.660000,2\r\np2,,0.000001,1\r\n');
    const json = await gpuledger(['--db', db, 'query', sql, '--format', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { resource_id: 'p1', resource_name: 'svc, "quoted"', amount: 16.66, n: 2 },
      { resource_id: 'p2', resource_name: null, amount: 0.000001, n: 1 },
    ]);
    expect(json.stdout).toContain('"amount":16.66,');
    const ndjson = await gpuledger(['--db', db, 'query', sql, '--format', 'ndjson']);
    expect(ndjson.stdout.trim().split('\n').map((l) => JSON.parse(l).amount)).toEqual([16.66, 0.000001]);
    const table = await gpuledger(['--db', db, 'query', sql, '--format', 'table']);
    expect(table.stdout.split('\n')).toEqual([
      'resource_id  resource_name     amount  n',
      '-----------  -------------  ---------  -',
      'p1           svc, "quoted"  16.660000  2',
      'p2           null            0.000001  1',
      '',
    ]);
  });

  it('writes --out atomically, choosing the format from the extension', async () => {
    const out = join(dirname(db), 'result.csv');
    const r = await gpuledger(['--db', db, 'query', 'select 1.5::decimal(18,6) as x', '--out', out]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(out, 'utf8')).toBe('x\r\n1.500000\r\n');
  });

  it('refuses statements that write, before running anything', async () => {
    for (const statement of [
      'drop view cost',
      "insert into raw_billing_pods select * from raw_billing_pods",
      // COPY to a file outside --allow-read is refused by the sandbox while it is prepared: sandbox.test.ts
      `copy (select 1) to '${join(dirname(db), 'leak.csv')}'`,
      'select 1; delete from raw_billing_pods',
      "attach ':memory:' as m",
      'set threads = 1',
    ]) {
      const r = await gpuledger(['--db', db, 'query', statement]);
      expect(r.code, statement).toBe(2);
      expect(r.stderr, statement).toMatch(
        /^gpuledger: (query runs read-only SQL only .*(statement is|statement \d of \d is) (DROP|INSERT|DELETE|ATTACH|SET)|query reads only the database .* would read or write a file)/,
      );
    }
    expect(existsSync(join(dirname(db), 'leak.csv'))).toBe(false);
    const still = await gpuledger(['--db', db, 'query', 'select count(*) as n from raw_billing_pods', '--format', 'csv']);
    expect(still.stdout).toBe('n\r\n2\r\n');
  });

  it('refuses several statements in one line (exit 2) instead of printing one result and dropping the others', async () => {
    for (const [text, count] of [
      ['select 1 as a; select 2 as b', 2],
      ['select 1 as a;\nselect 2 as b;\nselect 3 as c;', 3],
    ] as const) {
      const r = await gpuledger(['--db', db, 'query', text, '--format', 'csv']);
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: `gpuledger: query runs one statement; got ${count} (separated by ';'): run each on its own, or combine them into one (UNION ALL, a WITH … SELECT)\n`,
      });
    }
    // one statement with its closing semicolon is one statement
    const one = await gpuledger(['--db', db, 'query', 'select 1 as a;', '--format', 'csv']);
    expect(one).toMatchObject({ code: 0, stdout: 'a\r\n1\r\n' });
  });

  it('writes to the standard output with --out - or /dev/stdout (a pipe here), never a file or a temporary path', async () => {
    for (const out of ['-', '/dev/stdout', '/dev/fd/1']) {
      const r = await gpuledger(['--db', db, 'query', 'select 1.5::decimal(18,6) as x', '--out', out, '--format', 'csv'], {}, { cwd: dirname(db) });
      expect(r, out).toEqual({ code: 0, stdout: 'x\r\n1.500000\r\n', stderr: '' });
    }
    expect(readdirSync(dirname(db)).filter((n) => n === '-' || isTemporaryName(n))).toEqual([]);
  });

  it("shows DuckDB's message with the line and column of the error, in one line, and exits 1", async () => {
    const r = await gpuledger(['--db', db, 'query', 'select resource_id\nfrom cost\nwhere nope = 1']);
    // a statement that fails is a failed command (1), not a usage error (issue 12 §5)
    expect(r).toMatchObject({
      code: 1,
      stderr: 'gpuledger: SQL error at line 3, column 7: Binder Error: Referenced column "nope" not found in FROM clause!\n',
    });
    const syntax = await gpuledger(['--db', db, 'query', 'select from where']);
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(/^gpuledger: SQL error at line 1, column \d+: Parser Error: syntax error at or near "where"\n$/);
  });

  it('pins report_clock with --as-of', async () => {
    const r = await gpuledger(['--db', db, 'query', 'select as_of_date::varchar as d from report_clock', '--as-of', '2026-10-15T23:00:00-02:00', '--format', 'csv']);
    expect(r.stdout).toBe('d\r\n2026-10-16\r\n');
  });

  it('says to sync first when the database does not exist, and names accepted formats', async () => {
    const missing = await gpuledger(['--db', join(dirname(db), 'nope.duckdb'), 'query', 'select 1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist yet; run gpuledger sync first/);
    const format = await gpuledger(['--db', db, 'query', 'select 1', '--format', 'xml']);
    expect(format).toMatchObject({ code: 2, stderr: "gpuledger: --format must be one of table, csv, json, ndjson, parquet, xlsx, got 'xml'\n" });
  });
});
