// DuckDB's memory during a render. By default DuckDB may use 80 % of the machine's RAM and keeps what it took, so a
// render of a million-row month peaked at 816–882 MB RSS (bench/results/report.json): the report views and the
// Detail sheet's sort all held in memory. With a limit, DuckDB spills past it to its temp directory instead. The
// limit is the database's, not the connection's, so it is set for the render only and reset afterwards (gpuledger
// sets no other memory_limit: RESET is the previous value).
//
// Measured on the bench:report database (1 M cost rows in the month), the process's resident memory follows the
// limit: caching the nightly report's views peaked at ~430 MB under 256 MB and ~385 MB under 128 MB; the whole render
// also succeeds under 64 MB. A large table sheet runs under 64 MB: its two passes over the query (the stats, then the
// sorted rows) are the biggest thing DuckDB does in a render – under 256 MB the Detail's stats pass alone raised the
// process from 310 to 435 MB – and under 64 MB the sort spills ~40 MB and takes no longer. 32 MB fails (each of
// DuckDB's threads needs sort blocks of its own).
import type { DuckDBValue } from '@duckdb/node-api';
import type { Store } from '../store/database.ts';
import { streamRawRows, type QueryParameters } from './query.ts';

/** What DuckDB may hold during a render: the views' joins spill past it; see docs/report.md. */
export const REPORT_MEMORY_LIMIT = '128MB';
/** What DuckDB may hold while a large table sheet is read: the sort of its rows spills past it. */
export const LARGE_SHEET_MEMORY_LIMIT = '64MB';

/** Limit DuckDB's memory until the returned function is called. */
export async function limitReportMemory(store: Store): Promise<() => Promise<void>> {
  await store.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);
  return async () => {
    await store.run('RESET memory_limit');
  };
}

/** DuckDB's limit lowered for a while: `restore` puts back the one before (once; later calls do nothing). */
export interface LoweredLimit {
  store: Store;
  restore(): Promise<void>;
}

/** Lower DuckDB's limit to `limit`; when DuckDB cannot free enough for that now, the limit stays as it was. */
export async function lowerMemoryLimit(store: Store, limit = LARGE_SHEET_MEMORY_LIMIT): Promise<LoweredLimit> {
  const before = (await store.one<{ v: string }>(`select current_setting('memory_limit') as v`))!.v;
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
      await store.run(`SET memory_limit = '${before}'`);
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
