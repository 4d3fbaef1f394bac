// Compute once per workbook: a report view that several queries of a render read – directly, or through other
// report views (rpt_summary_figures reads rpt_waste, which the Waste block reads too) – is read once into a temp
// table of the same name for the render. DuckDB resolves temp before main, also inside views, so every later query
// reads the rows instead of computing the view again; the report clock is set before, so the rows are the render's.
// A view is copied when the first sheet that reads it is rendered, not all up front: a served page that shows one
// section pays only for that section's views (issue 28). The tables are dropped when the render ends.
import type { Store } from '../store/database.ts';
import { listViewFiles, orderViews, viewReferences, type ViewFile } from '../transform/views.ts';
import type { ReportDefinition } from './definition/index.ts';

type Sheet = ReportDefinition['sheets'][number];

/** The queries one sheet runs: a table sheet's rows, a summary's blocks and charts. */
export function sheetQueries(sheet: Sheet): string[] {
  return sheet.kind === 'table' ? [sheet.sql ?? `select * from ${sheet.view}`] : [...sheet.blocks.map((b) => b.sql), ...sheet.charts.map((c) => c.sql)];
}

/** Every query a definition runs: table sheets, summary blocks and charts. */
export function definitionQueries(def: ReportDefinition): string[] {
  return def.sheets.flatMap(sheetQueries);
}

/**
 * Report views never cached whole: every report reads them for its period alone, and DuckDB carries that filter down
 * to the records, so computing the whole history once costs more than each query's period. rpt_reconciliation on the
 * bench:views database (400 days, hourly): every bucket 1.4–3.2 s, one month's 0.25–0.3 s – the nightly report's two
 * reconciliation queries cost a fifth of caching it.
 */
export const READ_BY_PERIOD: ReadonlySet<string> = new Set(['rpt_reconciliation']);

/** The report views `queries` read, directly or through other report views and the macros they call. */
function readViews(queries: readonly string[], views: readonly ViewFile[]): Map<string, number> {
  const byName = new Map(views.map((v) => [v.name, v]));
  const reports = new Set(views.filter((v) => v.layer === 'reports').map((v) => v.name));
  // a macro (a definition's figures over its period: rpt_unit_cost_latest_in) is no table to copy, but reads views
  const macros = new Set(views.filter((v) => v.layer === 'macros').map((v) => v.name));
  const names = new Set(byName.keys());
  const closure = (start: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const passed = new Set<string>();
    const visit = (name: string) => {
      if (macros.has(name) && !passed.has(name)) {
        passed.add(name);
        for (const ref of viewReferences(byName.get(name)!, names)) visit(ref);
        return;
      }
      if (seen.has(name) || !reports.has(name)) return;
      seen.add(name);
      for (const ref of viewReferences(byName.get(name)!, names)) visit(ref);
    };
    start.forEach(visit);
    return seen;
  };
  const counts = new Map<string, number>();
  for (const q of queries) {
    const direct = viewReferences({ name: '', layer: 'reports', description: '', path: '', sql: q }, names);
    for (const name of closure(direct)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/** The report views read by more than one query of the definition, counting what each view reads in turn. */
export function sharedReportViews(queries: readonly string[], views: readonly ViewFile[]): ViewFile[] {
  const shared = new Set([...readViews(queries, views)].filter(([name, n]) => n > 1 && !READ_BY_PERIOD.has(name)).map(([name]) => name));
  // a view before the views that read it, so each is computed from the cached rows below it
  return orderViews([...views]).filter((v) => shared.has(v.name));
}

export interface SharedViewCache {
  /** Copies the shared views `sheet` reads (and the shared views those read) that are not copied yet. */
  prepare(sheet: Sheet): Promise<void>;
  /** Drops every table copied. */
  drop(): Promise<void>;
}

/** The shared report views of `def` for this connection, each copied when a sheet that reads it is prepared. */
export async function sharedViewCache(store: Store, def: ReportDefinition, log?: { debug(s: string): void }): Promise<SharedViewCache> {
  const present = new Set(
    (await store.all<{ name: string }>(`select view_name as name from duckdb_views() where schema_name = 'main' and not internal`)).map((r) => r.name),
  );
  const views = listViewFiles();
  // an older database without a view: the query that needs it says so
  const shared = sharedReportViews(definitionQueries(def), views).filter((v) => present.has(v.name));
  const cached: string[] = [];
  return {
    async prepare(sheet) {
      const reads = readViews(sheetQueries(sheet), views);
      // in the shared order: a view's own shared views are copied before it, so it is computed from their rows
      for (const view of shared) {
        if (!reads.has(view.name) || cached.includes(view.name)) continue;
        const started = Date.now();
        await store.run(`create or replace temp table ${view.name} as select * from main.${view.name}`);
        cached.push(view.name);
        log?.debug(`cached ${view.name} in ${Date.now() - started} ms`);
      }
    },
    async drop() {
      for (const name of cached.splice(0).reverse()) await store.run(`drop table if exists temp.main.${name}`);
    },
  };
}
