import ExcelJS from 'exceljs';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../src/util/duckdb-api.ts';
import { gpuledger } from '../helpers/cli.ts';
import { addInventory, billPods, tmpDbPath, viewStore } from '../helpers/view-store.ts';

// every kind of column a result can hold, beside exact money from the cost view
const SQL = `
  select resource_id, resource_name, sum(amount) as amount, count(*) as n,
    min(bucket_start) as first_start, min(bucket_start)::date as first_day,
    1.25::double as ratio, true as flag, '=1+1' as formula_like, repeat('x', 40000) as long_text,
    [1, 2] as list
  from cost group by all order by 1`;

async function readOnly(db: string) {
  const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  await connection.run("set TimeZone = 'UTC'");
  return { connection, close: () => (connection.closeSync(), instance.closeSync()) };
}

describe('gpuledger query --format parquet|xlsx', () => {
  let db: string;
  beforeAll(async () => {
    db = tmpDbPath('gpuledger-query-files-');
    const store = await viewStore(db);
    await addInventory(store, [{ kind: 'pod', id: 'p1', doc: { name: 'svc, "quoted"' } }]);
    await billPods(store, [
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '16.560000', disk: '0.100000' },
      { pod: 'p2', start: '2026-10-02T05:00:00Z', gpu: '0.000001' },
    ]);
    await store.close();
  });

  it('writes Parquet that DuckDB reads back as the same rows with the same types', async () => {
    const out = join(dirname(db), 'result.parquet');
    const r = await gpuledger(['--db', db, 'query', SQL, '--format', 'parquet', '--out', out]);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const { connection, close } = await readOnly(db);
    try {
      const back = `select * from read_parquet('${out}')`;
      for (const diff of [`(${SQL}) except all (${back})`, `(${back}) except all (${SQL})`]) {
        expect((await connection.runAndReadAll(diff)).getRowsJson()).toEqual([]);
      }
      expect((await connection.runAndReadAll(back)).getRowsJson()).toHaveLength(2);
      const typesOf = async (q: string) => (await connection.runAndReadAll(`describe ${q}`)).getRowObjectsJson().map((c) => [c.column_name, c.column_type]);
      const types = await typesOf(back);
      expect(types).toEqual(await typesOf(`(${SQL})`));
      expect(Object.fromEntries(types)).toMatchObject({ amount: 'DECIMAL(38,6)', first_start: 'TIMESTAMP WITH TIME ZONE', first_day: 'DATE' });
    } finally {
      close();
    }
  });

  it('writes xlsx whose cells exceljs reads with their types: numbers, money format, dates, text', async () => {
    const out = join(dirname(db), 'result.xlsx');
    const r = await gpuledger(['--db', db, 'query', SQL, '--out', out]);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(out);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['resource_id', 'resource_name', 'amount', 'n', 'first_start', 'first_day', 'ratio', 'flag', 'formula_like', 'long_text', 'list']);
    const cell = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1);
    expect(cell(2, 'resource_id').value).toBe('p1');
    expect(cell(2, 'resource_name').value).toBe('svc, "quoted"');
    expect(cell(2, 'amount').value).toBe(16.66);
    expect(cell(3, 'amount').value).toBe(0.000001);
    expect(cell(2, 'amount').numFmt).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(cell(2, 'n').value).toBe(2);
    expect(cell(2, 'first_start').value).toEqual(new Date('2026-10-01T00:00:00Z'));
    expect(cell(3, 'first_start').value).toEqual(new Date('2026-10-02T05:00:00Z'));
    expect(cell(3, 'first_day').value).toEqual(new Date('2026-10-02T00:00:00Z'));
    expect(cell(2, 'first_day').numFmt).toBe('yyyy-mm-dd');
    expect(cell(2, 'ratio').value).toBe(1.25);
    expect(cell(2, 'flag').value).toBe(true);
    // data, not neutralised: a text cell, never a formula
    expect(cell(2, 'formula_like').value).toBe('=1+1');
    expect(cell(2, 'formula_like').type).toBe(ExcelJS.ValueType.String);
    const long = String(cell(2, 'long_text').value);
    expect(long).toHaveLength(32_767);
    expect(long.endsWith('… [cut: 40,000 characters]')).toBe(true);
    expect(cell(2, 'list').value).toBe('[1,2]');
    expect(sheet.rowCount).toBe(3);
  });

  it('refuses a binary format without a file, or to the standard output, with one line (exit 2)', async () => {
    for (const args of [
      ['--format', 'parquet'],
      ['--format', 'xlsx'],
      ['--format', 'parquet', '--out', '-'],
      ['--format', 'xlsx', '--out', '/dev/stdout'],
    ]) {
      const r = await gpuledger(['--db', db, 'query', 'select 1 as x', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^gpuledger: query --format (parquet|xlsx) writes .*pass --out FILE \(e\.g\. --out result\.(parquet|xlsx)\)\n$/);
      expect(r.stdout).toBe('');
    }
  });

  it('goes through the output guard: never the database, and nothing left behind on a failed query', async () => {
    const refused = await gpuledger(['--db', db, 'query', 'select 1 as x', '--format', 'parquet', '--out', db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^gpuledger: --out .* is the database; pick another file\n$/);
    const failed = await gpuledger(['--db', db, 'query', 'select * from no_such_view', '--out', join(dirname(db), 'failed.xlsx')]);
    // an SQL error is the query's failure (exit 1, as for every format), said in one line
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(dirname(db)).filter((f) => f.includes('gpuledger-tmp') || f.startsWith('failed'))).toEqual([]);
    expect(existsSync(join(dirname(db), 'failed.xlsx'))).toBe(false);
  });
});
