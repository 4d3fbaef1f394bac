// Parquet and JSON metrics files go through DuckDB with every field as text, so values keep their exact digits.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { readMetricsWithDuckdb } from '../../src/metrics/read-duckdb-file.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('Parquet and JSON metrics files', () => {
  const dir = tempDir('gpuledger-metrics-files-').dir;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a JSON array with numbers as written (0.1 stays 0.1)', async () => {
    const file = join(dir, 'm.json');
    writeFileSync(file, JSON.stringify([{ date: '2026-11-01', metric: 'images', value: 0.1, scope: 'family:serverless', account: 'team-a' }, { date: '2026-11-02', metric: 'images', value: 12 }]));
    expect(await readMetricsWithDuckdb(file, 'json', file)).toEqual([
      { line: 1, date: '2026-11-01', metric: 'images', value: '0.1', scope: 'family:serverless', account: 'team-a' },
      { line: 2, date: '2026-11-02', metric: 'images', value: '12', scope: '', account: '' },
    ]);
  });

  it('reads Parquet DATE and DECIMAL columns as exact text', async () => {
    const file = join(dir, 'm.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    await c.run(`copy (select date '2026-11-03' as date, 'images' as metric, 1234.5::decimal(18,3) as value, '' as scope) to '${file}' (format parquet)`);
    c.closeSync();
    instance.closeSync();
    expect(await readMetricsWithDuckdb(file, 'parquet', file)).toEqual([{ line: 1, date: '2026-11-03', metric: 'images', value: '1234.500', scope: '', account: '' }]);
  });

  it('refuses a Parquet column it does not read instead of ignoring it', async () => {
    const file = join(dir, 'extra.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    await c.run(`copy (select date '2026-11-03' as date, 'images' as metric, 1 as value, 'team-a' as acount) to '${file}' (format parquet)`);
    c.closeSync();
    instance.closeSync();
    await expect(readMetricsWithDuckdb(file, 'parquet', file)).rejects.toThrow(
      `${file}: a column 'acount' that gpuledger does not read; expected date, metric, value, scope (optional), account (optional)`,
    );
  });
});
