// What the SQL page shows besides a result: the form, a few example queries (each a link that runs it – they run on
// the demo as on any account) and the schema: every public view with what one row is, and its columns with their
// type and – where the catalog has one (COMMENT ON COLUMN, src/store/column-descriptions.ts) – what they mean.
import { listPublicViews } from '../query/public-views.ts';
import { dataTable, hrefWith, html, section, type Markup, type TableColumn } from '../present/index.ts';
import type { Store } from '../store/database.ts';

export interface ExampleQuery {
  title: string;
  sql: string;
}

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  { title: 'Cost by family, all history', sql: 'select family, sum(amount) as amount\nfrom cost_daily\ngroup by family\norder by amount desc' },
  {
    title: 'The ten most expensive resources of the last 30 days',
    sql: 'select resource_id, any_value(resource_name) as resource_name, family, sum(amount) as amount\nfrom cost_daily\nwhere day > (select max(day) from cost_daily) - 30\ngroup by resource_id, family\norder by amount desc\nlimit 10',
  },
  { title: 'GPU-hours and cost by GPU type, by month', sql: "select date_trunc('month', day) as month, gpu_type_name, sum(gpu_hours) as gpu_hours, sum(billed_cost) as cost\nfrom gpu_hours_daily\ngroup by all\norder by month desc, cost desc" },
  { title: 'How long each balance lasts', sql: 'select account, balance, spend_per_hour, runway_hours, runs_out_at\nfrom rpt_runway' },
];

export function sqlForm(query: string | null): Markup {
  return html`<form class="sql" method="get" action="/sql"><label for="q">Read-only SQL – the sandbox of <code>gpuledger query</code></label><textarea id="q" name="q">${query ?? ''}</textarea><div class="tools"><button type="submit">Run</button></div></form>`;
}

export function examplesSection(): Markup {
  const items = EXAMPLE_QUERIES.map((e) => html`<li><a href="${hrefWith('/sql', { q: e.sql })}">${e.title}</a><pre>${e.sql}</pre></li>`);
  return section({ id: 's-examples', title: 'Examples', lines: ['Each runs as it is; open one, change it, run it again.'], body: html`<ul class="examples">${items}</ul>` });
}

const COLUMNS: TableColumn[] = [
  { field: 'column_name', header: 'Column', unit: 'text' },
  { field: 'data_type', header: 'Type', unit: 'text' },
  { field: 'description', header: 'What it holds', unit: 'text' },
];

type CatalogColumn = {
  table_name: string;
  column_name: string;
  data_type: string;
  comment: string | null;
};

/** The public views and their columns, from DuckDB's catalog of the published database. */
export async function schemaSection(store: Store, timeZone: string): Promise<Markup> {
  const views = listPublicViews();
  const names = new Set(views.map((v) => v.name));
  const columns = (await store.all<CatalogColumn>('select table_name, column_name, data_type, comment from duckdb_columns() where internal = false order by table_name, column_index')).filter((c) => names.has(c.table_name));
  const byView = new Map<string, CatalogColumn[]>();
  for (const c of columns) byView.set(c.table_name, [...(byView.get(c.table_name) ?? []), c]);
  const items = views.map((v) => {
    const rows = (byView.get(v.name) ?? []).map((c) => [c.column_name, c.data_type, c.comment ?? '']);
    const table = dataTable({
      columns: COLUMNS,
      rows,
      emptyText: 'Not in this database yet.',
      label: `columns of ${v.name}`,
      timeZone,
    });
    return html`<details><summary><code>${v.name}</code> – ${v.description}</summary>${table}</details>`;
  });
  return section({ id: 's-schema', title: 'Schema', lines: ['The public views: what one row is, and their columns. Internal stg_* and int_* views may change in any release.'], body: items });
}
