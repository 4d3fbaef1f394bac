// One snapshot of cost_daily per render. Every report view reads cost_daily, and cost_daily attributes each cost
// through the resource timelines – the expensive part of every query. A temp table of the same name shadows the
// view for this connection only (DuckDB resolves temp before main, also inside views), so the dozen queries of a
// workbook read one materialized copy instead of recomputing it each time. cost_daily does not depend on the report
// clock, so the numbers are the same; the snapshot is dropped when the render ends.
import type { Store } from '../store/database.ts';
import { StoreError } from '../util/errors.ts';
import type { ReportDefinition } from './definition/index.ts';

/** Whether any query of the definition reads cost_daily, directly or through a report view (rpt_*). */
export function readsCostDaily(def: ReportDefinition): boolean {
  const texts = def.sheets.flatMap((s) =>
    s.kind === 'table' ? [s.sql ?? s.view ?? '', s.where ?? ''] : [...s.blocks.map((b) => b.sql), ...s.charts.map((c) => c.sql)],
  );
  return texts.some((t) => /\b(cost_daily|rpt_\w+)\b/i.test(t));
}

export async function snapshotCostDaily(store: Store, def: ReportDefinition): Promise<() => Promise<void>> {
  if (!readsCostDaily(def)) return async () => {};
  const view = await store.one(`select 1 as x from duckdb_views() where view_name = 'cost_daily' and schema_name = 'main' and not internal`);
  if (!view) return async () => {};
  try {
    await store.run('create or replace temp table cost_daily as select * from main.cost_daily');
  } catch (e) {
    throw new StoreError(`reading cost_daily failed: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
  return async () => {
    await store.run('drop table if exists temp.cost_daily');
  };
}
