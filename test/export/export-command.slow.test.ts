import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { isTemporaryName } from '../../src/outputs/atomic-file.ts';
import { openStore } from '../../src/store/database.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { gpuledger } from '../helpers/cli.ts';
import { addInventory, billPods, billServerless, billVolumes, tmpDbPath, viewStore } from '../helpers/view-store.ts';

async function readBack(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('gpuledger export', () => {
  let db: string;
  let dir: string;
  beforeAll(async () => {
    db = tmpDbPath('gpuledger-export-');
    dir = dirname(db);
    const store = await viewStore(db);
    await addInventory(store, [{ kind: 'pod', id: 'p1', doc: { name: 'svc' } }]);
    await billPods(store, [
      { pod: 'p1', start: '2026-09-30T00:00:00Z', gpu: '16.560000', disk: '0.100000' },
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '16.560000' },
      { pod: 'p1', size: 'hour', start: '2026-10-01T05:00:00Z', gpu: '0.690000' },
    ]);
    await billServerless(store, [{ endpoint: 'e1', start: '2026-10-01T00:00:00Z', gpu: '5.000000' }]);
    await billVolumes(store, [{ volume: 'v1', start: '2026-10-01T00:00:00Z', highPerformance: '0.500000' }]);
    await store.close();
  });

  it('writes FOCUS as Parquet that reads back with the same total, in DECIMAL', async () => {
    const out = join(dir, 'focus.parquet');
    const r = await gpuledger(['--db', db, 'export', 'focus', '--format', 'parquet', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote 5 row\(s\)/);
    const [row] = await readBack(`select count(*) as n, sum(BilledCost)::varchar as total, typeof(any_value(BilledCost)) as t from '${out}'`);
    // the hour of 10-01 is covered by that day's bucket: FOCUS counts each amount once
    expect(row).toEqual({ n: '5', total: '38.720000', t: 'DECIMAL(18,6)' });
    expect(readdirSync(dir).filter(isTemporaryName)).toEqual([]);
  });

  it('writes FOCUS to the standard output with --out - or /dev/stdout (a pipe here), the same bytes as the file', async () => {
    const file = join(dir, 'focus-file.csv');
    expect((await gpuledger(['--db', db, 'export', 'focus', '--format', 'csv', '--out', file])).code).toBe(0);
    for (const out of ['-', '/dev/stdout']) {
      const r = await gpuledger(['--db', db, 'export', 'focus', '--format', 'csv', '--out', out], {}, { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/wrote 5 row\(s\) to the standard output/);
      expect(r.stdout).toBe(readFileSync(file, 'utf8'));
    }
    // nothing named '-' and no temporary file left where it ran
    expect(readdirSync(dir).filter((n) => n === '-' || isTemporaryName(n))).toEqual([]);
  });

  it('writes FOCUS as CSV with ISO 8601 UTC charge periods', async () => {
    const out = join(dir, 'focus.csv');
    const r = await gpuledger(['--db', db, 'export', 'focus', '--format', 'csv', '--out', out]);
    expect(r.code).toBe(0);
    const [row] = await readBack(
      `select sum(BilledCost::decimal(18,6))::varchar as total, min(ChargePeriodStart::varchar) as first from read_csv('${out}', all_varchar = true)`,
    );
    expect(row).toEqual({ total: '38.720000', first: '2026-09-30T00:00:00Z' });
  });

  it('writes the cost facts as a Hive-partitioned Parquet lake: cost/ and cost_daily/, each account=/family=/month=, with a manifest', async () => {
    const out = join(dir, 'lake');
    const r = await gpuledger(['--db', db, 'export', 'lake', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/lake .*: 6 cost and 5 cost_daily row\(s\) in 8 file\(s\); rewrote 8, removed 0, unchanged 0/);
    expect(readdirSync(out).sort()).toEqual(['_gpuledger_lake.json', 'cost', 'cost_daily']);
    expect(readdirSync(join(out, 'cost', 'account=acme')).sort()).toEqual(['family=pod', 'family=serverless', 'family=storage']);
    expect(readdirSync(join(out, 'cost', 'account=acme', 'family=pod')).sort()).toEqual(['month=2026-09', 'month=2026-10']);
    expect(readdirSync(join(out, 'cost', 'account=acme', 'family=pod', 'month=2026-10'))).toEqual(['data.parquet']);
    const rows = await readBack(
      `select family, bucket_size, sum(amount)::varchar as total from read_parquet('${out}/cost/**/*.parquet', hive_partitioning = true)
       group by all order by all`,
    );
    expect(rows).toEqual([
      { family: 'pod', bucket_size: 'day', total: '33.220000' },
      { family: 'pod', bucket_size: 'hour', total: '0.690000' },
      { family: 'serverless', bucket_size: 'day', total: '5.000000' },
      { family: 'storage', bucket_size: 'day', total: '0.500000' },
    ]);
    // cost_daily counts each day once (the hour of 10-01 is inside that day's bucket)
    const [daily] = await readBack(`select sum(amount)::varchar as total from read_parquet('${out}/cost_daily/**/*.parquet', hive_partitioning = true)`);
    expect(daily).toEqual({ total: '38.720000' });
    const manifest = JSON.parse(readFileSync(join(out, '_gpuledger_lake.json'), 'utf8'));
    expect(manifest.files.find((f: { path: string }) => f.path === 'cost_daily/account=acme/family=pod/month=2026-10/data.parquet')).toMatchObject({
      table: 'cost_daily', account: 'acme', family: 'pod', month: '2026-10', rows: 1, amount: '16.560000',
    });
    expect(readdirSync(dir).filter(isTemporaryName)).toEqual([]);
  });

  it('carries the Parquet types the README documents for each engine', async () => {
    const schema = async (table: string) =>
      Object.fromEntries(
        (await readBack(
          `select name, type, converted_type as ct, precision, scale from parquet_schema('${join(dir, 'lake', table, 'account=acme', 'family=pod', 'month=2026-10', 'data.parquet')}') where name <> 'duckdb_schema'`,
        )).map((c) => [c.name, [c.type, c.ct, c.precision, c.scale].filter((x) => x !== null).join(' ')]),
      );
    const text = 'BYTE_ARRAY UTF8';
    const names = { resource_id: text, resource_name: text, gpu_type_id: text, gpu_type_name: text, data_center_id: text, template_id: text, template_name: text, endpoint_id: text, endpoint_name: text, attribution: text };
    expect(await schema('cost')).toEqual({
      component: text, bucket_size: text, bucket_start: 'INT64 TIMESTAMP_MICROS', bucket_end: 'INT64 TIMESTAMP_MICROS', ...names, amount: 'INT64 DECIMAL 18 6',
    });
    expect(await schema('cost_daily')).toEqual({ component: text, ...names, amount: 'INT64 DECIMAL 18 6', day: 'INT32 DATE' });
    const [utc] = await readBack(`select logical_type from parquet_schema('${join(dir, 'lake', 'cost', 'account=acme', 'family=pod', 'month=2026-10', 'data.parquet')}') where name = 'bucket_start'`);
    expect(utc?.logical_type).toMatch(/isAdjustedToUTC=1/);
  });

  it('rewrites nothing when nothing changed, and keeps a file someone dropped inside the lake', async () => {
    const out = join(dir, 'lake');
    writeFileSync(join(out, 'notes.txt'), 'mine');
    writeFileSync(join(out, 'cost', 'account=acme', 'family=pod', 'month=2026-09', 'README'), 'also mine');
    const file = join(out, 'cost', 'account=acme', 'family=pod', 'month=2026-09', 'data.parquet');
    const before = statSync(file);
    const r = await gpuledger(['--db', db, 'export', 'lake', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/rewrote 0, removed 0, unchanged 8/);
    expect(statSync(file)).toMatchObject({ ino: before.ino, mtimeMs: before.mtimeMs });
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(out, 'cost', 'account=acme', 'family=pod', 'month=2026-09', 'README'), 'utf8')).toBe('also mine');
  });

  it('deletes the files of partitions whose data is gone, and only their own folders', async () => {
    const out = join(dir, 'lake');
    const store = await openStore({ path: db });
    await store.run(`delete from raw_billing_pods where start_time < '2026-10-01'`);
    await refreshMaterialized(store); // as the writing session that removed them would, before publishing
    await store.close();
    const r = await gpuledger(['--db', db, 'export', 'lake', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/rewrote 0, removed 2, unchanged 6/);
    // the README dropped into cost's September partition keeps its folder; cost_daily's September folder goes
    expect(readdirSync(join(out, 'cost', 'account=acme', 'family=pod', 'month=2026-09'))).toEqual(['README']);
    expect(readdirSync(join(out, 'cost_daily', 'account=acme', 'family=pod'))).toEqual(['month=2026-10']);
    const manifest = JSON.parse(readFileSync(join(out, '_gpuledger_lake.json'), 'utf8'));
    expect(manifest.files.filter((f: { month: string }) => f.month === '2026-09')).toEqual([]);
  });

  it('names what is wrong with the arguments', async () => {
    expect(await gpuledger(['--db', db, 'export', 'focus'])).toMatchObject({ code: 2, stderr: 'gpuledger: export focus needs --out FILE\n' });
    expect(await gpuledger(['--db', db, 'export', 'lake', '--format', 'csv', '--out', join(dir, 'x')])).toMatchObject({
      code: 2,
      stderr: "gpuledger: --format for export lake must be parquet, got 'csv'\n",
    });
  });
});
