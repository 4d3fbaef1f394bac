// Whether a view exists in the open database: report_clock and the rpt_* views arrive with migrations and view
// files, so the report and the alerts check before they read one and say what is missing instead of failing in SQL.
import type { Store } from './database.ts';

export async function hasView(store: Store, name: string): Promise<boolean> {
  const row = await store.one(`select 1 as x from duckdb_views() where view_name = $1 and not internal`, [name]);
  return row !== undefined;
}
