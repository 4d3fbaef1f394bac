// DuckDB's memory during a render. By default DuckDB may use 80 % of the machine's RAM and keeps what it took, so a
// render of a million-row month peaked at 816–882 MB RSS (bench/results/report.json): the report views and the
// Detail sheet's sort all held in memory. With a limit, DuckDB spills the sort to its temp directory instead. The limit is the database's, not the connection's, so it is set for the render only and
// reset afterwards (gpuledger sets no other memory_limit: RESET is the previous value).
import type { Store } from '../store/database.ts';

/** What DuckDB may hold during a render: the Detail sheet's sort spills past it; see docs/report.md. */
export const REPORT_MEMORY_LIMIT = '256MB';

/** Limit DuckDB's memory until the returned function is called. */
export async function limitReportMemory(store: Store): Promise<() => Promise<void>> {
  await store.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);
  return async () => {
    await store.run('RESET memory_limit');
  };
}
