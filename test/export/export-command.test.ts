import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { gpuledger } from '../query/cli.ts';
import { addInventory, billPods, billServerless, billVolumes, tmpDbPath, viewStore } from '../views/fixtures.ts';

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
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
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

  it('writes the cost facts as a Hive-partitioned Parquet lake, replacing an old one whole', async () => {
    const out = join(dir, 'lake');
    mkdirSync(join(out, 'stale'), { recursive: true });
    writeFileSync(join(out, 'stale', 'old.parquet'), 'x');
    const r = await gpuledger(['--db', db, 'export', 'lake', '--out', out]);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'stale'))).toBe(false);
    expect(readdirSync(join(out, 'account=acme')).sort()).toEqual(['family=pod', 'family=serverless', 'family=storage']);
    expect(readdirSync(join(out, 'account=acme', 'family=pod')).sort()).toEqual(['month=2026-09', 'month=2026-10']);
    const rows = await readBack(
      `select family, bucket_size, sum(amount)::varchar as total from read_parquet('${out}/**/*.parquet', hive_partitioning = true)
       group by all order by all`,
    );
    expect(rows).toEqual([
      { family: 'pod', bucket_size: 'day', total: '33.220000' },
      { family: 'pod', bucket_size: 'hour', total: '0.690000' },
      { family: 'serverless', bucket_size: 'day', total: '5.000000' },
      { family: 'storage', bucket_size: 'day', total: '0.500000' },
    ]);
  });

  it('names what is wrong with the arguments', async () => {
    expect(await gpuledger(['--db', db, 'export', 'focus'])).toMatchObject({ code: 2, stderr: 'gpuledger: export focus needs --out FILE\n' });
    expect(await gpuledger(['--db', db, 'export', 'lake', '--format', 'csv', '--out', join(dir, 'x')])).toMatchObject({
      code: 2,
      stderr: "gpuledger: --format for export lake must be parquet, got 'csv'\n",
    });
  });
});
