// A Grafana dashboard's panel SQL as Grafana's PostgreSQL data source would send it, for tests that run it on a
// real mirror. Grafana expands its macros and variables before the query leaves for the server; this does the same
// for the few the gpuledger dashboards use, and refuses any other `$` word rather than send it on:
//   $__timeFilter(col)  →  col BETWEEN '<from>' AND '<to>'   (Grafana's PostgreSQL macro, RFC 3339 UTC instants)
//   $__timeFrom()       →  '<from>'          $__timeTo()  →  '<to>'
//   $name / ${name}     →  the variable's value: a multi-value variable as Grafana formats it for SQL – each value
//                          single-quoted (quotes doubled), comma-separated; a textbox as typed
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DASHBOARDS_DIR = fileURLToPath(new URL('../../grafana/dashboards/', import.meta.url));

export interface PanelQuery {
  dashboard: string;
  panel: string;
  refId: string;
  format: string;
  rawSql: string;
}

interface DashboardJson {
  panels?: { title?: string; targets?: { refId?: string; format?: string; rawSql?: string }[] }[];
}

/** Every panel target of every dashboard in grafana/dashboards/, with its raw SQL. */
export function panelQueries(dir = DASHBOARDS_DIR): PanelQuery[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const dashboard = JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as DashboardJson;
      return (dashboard.panels ?? []).flatMap((p) =>
        (p.targets ?? []).map((t) => {
          if (!t.rawSql) throw new Error(`${file}: panel "${p.title}" has a target without rawSql (every gpuledger panel is raw SQL)`);
          return { dashboard: file, panel: p.title ?? '(untitled)', refId: t.refId ?? 'A', format: t.format ?? 'table', rawSql: t.rawSql };
        }),
      );
    });
}

export interface GrafanaContext {
  from: Date;
  to: Date;
  variables: Record<string, string | readonly string[]>;
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const instant = (d: Date) => sqlString(d.toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** The SQL with Grafana's macros and variables expanded as its PostgreSQL data source would. */
export function expandPanelSql(sql: string, ctx: GrafanaContext): string {
  let out = sql
    .replace(/\$__timeFilter\(\s*([^)]+?)\s*\)/g, (_, col: string) => `${col} BETWEEN ${instant(ctx.from)} AND ${instant(ctx.to)}`)
    .replace(/\$__timeFrom\(\)/g, instant(ctx.from))
    .replace(/\$__timeTo\(\)/g, instant(ctx.to));
  out = out.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    if (name.startsWith('__')) throw new Error(`the Grafana macro ${whole} is not expanded by test/helpers/grafana-panel-sql.ts: add it there, documented`);
    const value = ctx.variables[name];
    if (value === undefined) throw new Error(`the panel SQL uses the variable $${name}, which the test gives no value`);
    return typeof value === 'string' ? value : value.map(sqlString).join(',');
  });
  return out;
}
