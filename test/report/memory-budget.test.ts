import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitReportMemory, lowerMemoryLimit, REPORT_MEMORY_LIMIT, streamUnderLimit, underLimit } from '../../src/report/memory-budget.ts';
import { streamRawRows } from '../../src/report/query.ts';
import { renderReport } from '../../src/report/render.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { twoAccountStore } from '../helpers/raw-billing.ts';
import { testConfig, writeDefinition } from '../helpers/report-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// a sort DuckDB cannot start within 2 MB (it allocates blocks of 256 KiB per thread). Not a limit near the edge: at
// 9 MB the same stream has ended with no rows and no error (table-sheet.ts's row count check is what catches that)
const SORT = 'select r from range(1000000) t(r) order by r desc';
const TINY = '2MB';

describe("the report's DuckDB memory limit", () => {
  let store: Store;
  let dir: string;
  const limit = async () => (await store.one<{ v: string }>(`select current_setting('memory_limit') as v`))!.v;

  beforeAll(async () => {
    ({ dir, store } = await twoAccountStore());
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
    // the nightly Detail sheet is large: read under the lower limit, which is given back when the sheet is done
    await renderReport({ store, config: testConfig(), report: 'nightly', outDir: dir });
    expect(await limit()).toBe(before);
    writeDefinition(dir, 'broken', 'title: B\ndefaultPeriod: month_to_date\nsheets:\n  - { name: A, sql: select * from no_such_table }\n');
    await expect(renderReport({ store, config: testConfig({ reports: { directory: dir } }), report: 'broken', outDir: dir })).rejects.toThrow(/no_such_table/);
    expect(await limit()).toBe(before);
  });

  it('lowers the limit for a large sheet and puts the one before back, once', async () => {
    const restoreReport = await limitReportMemory(store);
    try {
      const before = await limit();
      const lowered = await lowerMemoryLimit(store);
      expect(await limit()).toMatch(/^6\d\.\d MiB$/); // 64MB = 61.0 MiB
      await lowered.restore();
      expect(await limit()).toBe(before);
      await store.run(`SET memory_limit = '2GB'`);
      await lowered.restore(); // already restored: leaves the limit alone
      expect(await limit()).toMatch(/^1\.8 GiB$/);
    } finally {
      await restoreReport();
    }
    // outside a render: DuckDB's own limit back
    const own = await limit();
    const lowered = await lowerMemoryLimit(store);
    expect(await limit()).not.toBe(own);
    await lowered.restore();
    expect(await limit()).toBe(own);
  });
});

describe('a lowered DuckDB memory limit', () => {
  // a database of its own, holding nothing: DuckDB can always lower its limit at the start
  let store: Store;
  const limit = async () => (await store.one<{ v: string }>(`select current_setting('memory_limit') as v`))!.v;
  beforeAll(async () => {
    store = await openStore({ path: join(tempDir('gpuledger-memory-').dir, 'empty.duckdb') });
    await limitReportMemory(store); // as during a render
  });
  afterAll(async () => {
    await store?.close();
  });

  it('runs work that needs more than the lowered limit again under the limit before, and fails nothing else', async () => {
    const before = await limit();
    // the premise: this sort fails under the tiny limit
    await store.run(`SET memory_limit = '${TINY}'`);
    await expect(store.one(`select count(*)::int as n from (${SORT})`)).rejects.toThrow(/Out of Memory/);
    await store.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);

    const lowered = await lowerMemoryLimit(store, TINY);
    const limits: string[] = [];
    const n = await underLimit(lowered, async () => {
      limits.push(await limit());
      return (await store.one<{ n: number }>(`select count(*)::int as n from (${SORT})`))!.n;
    });
    expect(n).toBe(1000000);
    expect(limits).toHaveLength(2); // failed under the tiny limit, then ran under the one before
    expect(limits[1]).toBe(before);
    expect(await limit()).toBe(before);

    const other = await lowerMemoryLimit(store, TINY);
    await expect(underLimit(other, () => store.one('select * from no_such_table'))).rejects.toThrow(/no_such_table/);
    await other.restore();
  });

  it('streams rows whose sort needs more than the lowered limit, all of them in order', async () => {
    const before = await limit();
    await store.run(`SET memory_limit = '${TINY}'`);
    const direct = async () => {
      for await (const chunk of streamRawRows(store, SORT, {}, 'test')) void chunk;
    };
    await expect(direct()).rejects.toThrow(/Out of Memory/); // the premise, as above
    await store.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);

    const lowered = await lowerMemoryLimit(store, TINY);
    const rows: bigint[] = [];
    try {
      for await (const chunk of streamUnderLimit(lowered, SORT, {}, 'test')) for (const r of chunk) rows.push(r[0] as bigint);
    } finally {
      await lowered.restore();
    }
    expect(rows).toHaveLength(1000000);
    expect(rows.every((r, i) => r === BigInt(999999 - i))).toBe(true);
    expect(await limit()).toBe(before);
  });
});
