// Which copy of the database holds the newest data (issue 26 §5). The file's modification time says when the file
// was written, not what it holds: `cp` of an old backup over `<db>` makes the oldest data look newest. So copies are
// compared by what is recorded inside – the newest moment gpuledger wrote something there: a run, a load, a balance
// observation or top-up, a metric import, a queue sample, an alert or a report delivery. Each of these is stamped
// with the writer's own clock when written (never the platform's), so the times of two copies compare.
import { openStore, type Store } from './database.ts';

/** Where a write leaves its time: table and column. A table an older migration lacks is skipped. */
const RECORDED_AT: readonly { table: string; column: string }[] = [
  { table: '_meta_runs', column: 'coalesce(finished_at, started_at)' },
  { table: '_meta_loads', column: 'extracted_at' },
  { table: '_meta_restatements', column: 'detected_at' },
  { table: 'raw_balance_observations', column: '_extracted_at' },
  { table: 'raw_balance_top_ups', column: '_extracted_at' },
  { table: 'raw_metrics', column: '_loaded_at' },
  { table: 'raw_queue_health', column: '_extracted_at' },
  { table: '_meta_alert_events', column: 'created_at' },
  { table: '_meta_alert_deliveries', column: 'delivered_at' },
  { table: '_meta_report_deliveries', column: 'updated_at' },
];

/** The newest recorded write in an open store, as RFC 3339 with milliseconds (fixed width: two compare as strings). */
export async function newestRecord(store: Store): Promise<string | undefined> {
  const present = new Set(
    (await store.all<{ name: string }>(`select table_name as name from duckdb_tables() where database_name = current_database() and schema_name = 'main'`)).map((r) => r.name),
  );
  const maxima = RECORDED_AT.filter((r) => present.has(r.table)).map((r) => `select max(${r.column}) as t from ${r.table}`);
  if (maxima.length === 0) return undefined;
  const row = await store.one<{ newest: string | null }>(`select strftime(max(t), '%Y-%m-%dT%H:%M:%S.%gZ') as newest from (${maxima.join(' union all ')})`);
  return row?.newest ?? undefined;
}

/** What a copy holds, by time: its newest recorded write (undefined: it holds none yet). */
export interface Holding {
  newest: string | undefined;
}

/** The newest recorded write in the copy at `path`, read-only; undefined when the copy cannot be read. */
export async function readHolding(path: string): Promise<Holding | undefined> {
  let store: Store;
  try {
    store = await openStore({ path, readOnly: true });
  } catch {
    return undefined; // damaged, in use or gone: copy-check.ts and the session's own open say which
  }
  try {
    return { newest: await newestRecord(store) };
  } catch {
    return undefined;
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** Whether copy `a` holds data newer than anything in copy `b`. */
export function holdsNewer(a: Holding, b: Holding): boolean {
  return a.newest !== undefined && (b.newest === undefined || a.newest > b.newest);
}

/** "2026-11-20T12:34:56.789Z", or what a copy without records holds. */
export function shownRecord(newest: string | undefined): string {
  return newest ?? 'nothing recorded';
}
