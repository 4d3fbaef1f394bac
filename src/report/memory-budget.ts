// DuckDB's memory during a render. By default DuckDB may use 80 % of the machine's RAM and keeps what it took, so a
// render of a million-row month peaked at 816–882 MB RSS (bench/results/report.json): the cost_daily snapshot, the
// report views over it and the Detail sheet's sort all held in memory. With a limit, DuckDB spills the snapshot and
// the sort to its temp directory (`<database>.tmp`) instead; the rest of the process (Node, exceljs, the streamed
// rows) stays near 150 MB. The limit is the database's, not the connection's, so it is set for the render only and
// reset afterwards (gpuledger sets no other memory_limit: RESET is the previous value).
import type { Store } from '../store/database.ts';
import type { Logger } from '../util/log.ts';

/** Enough for the attribution behind cost_daily (its joins cannot spill) with room to spare; see docs/report.md. */
export const REPORT_MEMORY_LIMIT = '256MB';

export function isOutOfMemory(e: unknown): boolean {
  return /Out of Memory Error/i.test(e instanceof Error ? e.message : String(e));
}

/** Limit DuckDB's memory until the returned function is called. */
export async function limitReportMemory(store: Store): Promise<() => Promise<void>> {
  await store.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);
  return async () => {
    await store.run('RESET memory_limit');
  };
}

/**
 * Run `fn` under the limit; should DuckDB find it too small (an operator that cannot spill, on a far larger account
 * than the limit was sized for), run it again without the limit rather than fail the report.
 */
export async function withinBudget<T>(store: Store, log: Logger, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!isOutOfMemory(e)) throw e;
    log.warn(`${what}: DuckDB needed more than ${REPORT_MEMORY_LIMIT}; running it again without the report's memory limit`);
    await store.run('RESET memory_limit');
    try {
      return await fn();
    } finally {
      await store.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);
    }
  }
}
