import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitReportMemory, REPORT_MEMORY_LIMIT, withinBudget } from '../../src/report/memory-budget.ts';
import { renderReport } from '../../src/report/render.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { installContractStubs } from './contract-stubs.ts';
import { tempDir, testConfig, writeDefinition } from './fixtures.ts';

describe("the report's DuckDB memory limit", () => {
  let store: Store;
  let dir: string;
  const limit = async () => (await store.one<{ v: string }>(`select current_setting('memory_limit') as v`))!.v;

  beforeAll(async () => {
    dir = tempDir();
    store = await openStore({ path: join(dir, 'gpuledger.duckdb'), applyViews: false });
    await installContractStubs(store);
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

  it(`runs a step again without the limit when DuckDB finds ${REPORT_MEMORY_LIMIT} too small, and keeps the limit for the next`, async () => {
    const restore = await limitReportMemory(store);
    try {
      const limited = await limit();
      const seen: string[] = [];
      const result = await withinBudget(store, silentLogger, 'test step', async () => {
        seen.push(await limit());
        // a real DuckDB out-of-memory error under a limit far below what the query needs
        if (seen.length === 1) await store.run(`SET memory_limit = '1MB'`), await store.all('select list(i) from range(2000000) t(i)');
        return 'done';
      });
      expect(result).toBe('done');
      expect(seen[1]).not.toBe(limited);
      expect(await limit()).toBe(limited);
    } finally {
      await restore();
    }
  });
});
