// DuckDB's memory during a render. By default DuckDB may use 80 % of the machine's RAM and keeps what it took, so a
// render of a million-row month peaked at 816–882 MB RSS (bench/results/report.json): the report views and the
// Detail sheet's sort all held in memory. With a limit, DuckDB spills past it to its temp directory instead. The
// limit is the database's, not the connection's, so it is set for the render only and reset afterwards (gpuledger
// sets no other memory_limit: RESET is the previous value).
//
// Measured on the bench:report database (1 M cost rows in the month): a large table sheet runs under 64 MB. Its two
// passes over the query (the stats, then the sorted rows) are the biggest thing DuckDB does in a render, and what
// DuckDB took for them stays resident: under 256 MB the Detail's stats pass alone raised the process from 310 to
// 435 MB; under 64 MB the sort spills ~40 MB and the sheet takes about as long. 32 MB fails (each of DuckDB's threads
// needs sort blocks of its own). The views are cached under 256 MB: under 128 MB they peaked ~45 MB lower but spilled,
// rpt_waste taking 2–3 s longer, and the Detail's peak is the higher one anyway.
import type { DuckDBValue } from '@duckdb/node-api';
import type { Store } from '../store/database.ts';
import { streamRawRows, type QueryParameters } from './query.ts';

/** What DuckDB may hold during a render: the views' joins spill past it; see docs/report.md. */
export const REPORT_MEMORY_LIMIT = '256MB';
/** What DuckDB may hold while a large table sheet is read: the sort of its rows spills past it. */
export const LARGE_SHEET_MEMORY_LIMIT = '64MB';

// the limit a render set, as written: DuckDB shows a limit rounded (256MB as 244.1 MiB, which sets 244.0 MiB)
const renderLimits = new WeakMap<Store, string>();

/** Limit DuckDB's memory until the returned function is called. */
export async function limitReportMemory(store: Store): Promise<() => Promise<void>> {
  await store.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);
  renderLimits.set(store, REPORT_MEMORY_LIMIT);
  return async () => {
    renderLimits.delete(store);
    await store.run('RESET memory_limit');
  };
}

/** DuckDB's limit lowered for a while: `restore` puts back the render's limit, or DuckDB's own outside a render (once). */
export interface LoweredLimit {
  store: Store;
  restore(): Promise<void>;
}

/** Lower DuckDB's limit to `limit`; when DuckDB cannot free enough for that now, the limit stays as it was. */
export async function lowerMemoryLimit(store: Store, limit = LARGE_SHEET_MEMORY_LIMIT): Promise<LoweredLimit> {
  const before = renderLimits.get(store);
  let lowered = true;
  try {
    await store.run(`SET memory_limit = '${limit}'`);
  } catch (e) {
    if (!isOutOfMemory(e)) throw e;
    lowered = false;
  }
  return {
    store,
    async restore() {
      if (!lowered) return;
      lowered = false;
      await store.run(before === undefined ? 'RESET memory_limit' : `SET memory_limit = '${before}'`);
    },
  };
}

function isOutOfMemory(e: unknown): boolean {
  for (let c: unknown = e; c instanceof Error; c = c.cause) if (/Out of Memory Error/i.test(c.message)) return true;
  return false;
}

/**
 * `work` under the lowered limit; should DuckDB need more for it (a join that cannot spill, a definition's wider
 * rows), the limit before is restored and `work` runs once more: the lower limit saves memory, it never fails a report.
 */
export async function underLimit<T>(limit: LoweredLimit, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!isOutOfMemory(e)) throw e;
    await limit.restore();
    return work();
  }
}

/**
 * A query's rows (streamRawRows) under the lowered limit, with underLimit's retry – possible because DuckDB sorts
 * before it hands out the first chunk, so running out of memory fails the query before any row was used.
 */
export async function* streamUnderLimit(limit: LoweredLimit, sql: string, params: QueryParameters, where: string): AsyncGenerator<DuckDBValue[][]> {
  let started = false;
  try {
    for await (const chunk of streamRawRows(limit.store, sql, params, where)) {
      started = true;
      yield chunk;
    }
  } catch (e) {
    if (started || !isOutOfMemory(e)) throw e;
    await limit.restore();
    yield* streamRawRows(limit.store, sql, params, where);
  }
}
