// Which imported metrics have a whole-account quantity (scope ''): what a page can offer as a unit cost's divisor
// without computing metrics_daily, which derives every metric of every day.
import type { Store } from '../store/database.ts';

export async function importedWholeAccountMetrics(store: Store): Promise<string[]> {
  const rows = await store.all<{ metric: string }>(`select distinct metric from stg_metrics where scope = '' order by metric`);
  return rows.map((m) => m.metric);
}
