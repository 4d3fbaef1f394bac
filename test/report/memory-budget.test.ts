import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitReportMemory } from '../../src/report/memory-budget.ts';
import { renderReport } from '../../src/report/render.ts';
import type { Store } from '../../src/store/database.ts';
import { twoAccountsStore } from '../helpers/raw-billing.ts';
import { testConfig, writeDefinition } from '../helpers/report-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe("the report's DuckDB memory limit", () => {
  let store: Store;
  let dir: string;
  const limit = async () => (await store.one<{ v: string }>(`select current_setting('memory_limit') as v`))!.v;

  beforeAll(async () => {
    dir = tempDir('gpuledger-report-').dir;
    store = await twoAccountsStore(join(dir, 'gpuledger.duckdb'));
  });
  afterAll(async () => {
    await store?.close();
  });

  it('holds only while a render runs: the database has its own limit again afterwards, also after a failure', async () => {
    const before = await limit();
    const restore = await limitReportMemory(store);
    expect(await limit()).toMatch(/^2\d\d\.\d MiB$/); // 256MB = 244.1 MiB
    await restore();
    expect(await limit()).toBe(before);
    await renderReport({ store, config: testConfig(), report: 'nightly', outDir: dir });
    expect(await limit()).toBe(before);
    writeDefinition(dir, 'broken', 'title: B\ndefaultPeriod: month_to_date\nsheets:\n  - { name: A, sql: select * from no_such_table }\n');
    await expect(renderReport({ store, config: testConfig({ reports: { directory: dir } }), report: 'broken', outDir: dir })).rejects.toThrow(/no_such_table/);
    expect(await limit()).toBe(before);
  });
});
