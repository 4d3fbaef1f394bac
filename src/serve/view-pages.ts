// The public views in `serve`: the list (each view with what one row is) and one view as a table – its first rows,
// their count, and the CSV of all of them (streamed by sql-answer.ts).
import { columnsOf } from '../query/column-kinds.ts';
import { listPublicViews, type PublicView } from '../query/public-views.ts';
import { dataTable, html, rowsNote, section, tableTools } from '../present/index.ts';
import type { Store } from '../store/database.ts';
import type { Table } from '../util/table-text.ts';
import { PAGE_ROWS, PageError, sandboxTable, servedPage, type PageContext, type ServedTable } from './pages.ts';

// the public views are the files shipped with this build: read once
let views: PublicView[] | undefined;
export const publicViews = (): PublicView[] => (views ??= listPublicViews());

export function publicView(name: string): PublicView {
  const found = publicViews().find((candidate) => candidate.name === name);
  if (!found) throw new PageError(404, `no public view '${name}' (see /views)`);
  return found;
}

export function viewsPage(ctx: PageContext): string {
  const table: ServedTable = {
    columns: [
      { field: 'view', header: 'View', unit: 'text', upIsBad: false, link: (name) => ({ href: `/view/${String(name)}` }) },
      { field: 'layer', header: 'Layer', unit: 'text', upIsBad: false },
      { field: 'description', header: 'One row is', unit: 'text', upIsBad: false },
    ],
    rows: publicViews().map((v) => [v.name, v.layer, v.description]),
    totalRows: publicViews().length,
    emptyText: 'No public view.',
  };
  const body = section({ id: 's-views', title: 'Views', body: [tableTools({ label: 'the views' }), dataTable({ ...table, label: 'public views', timeZone: ctx.config.timeZone })] });
  return servedPage(ctx, 'Public views', ['Every view of the public SQL interface; each opens as a table with a CSV download.'], body);
}

export async function viewPage(store: Store, ctx: PageContext, viewName: string): Promise<string> {
  const view = publicView(viewName);
  // the page shows the first rows: the view is computed once for them and their count, not converted whole
  const first = await store.connection.runAndReadAll(`with t as materialized (select * from ${view.name}) select *, (select count(*) from t) as __rows from t order by all limit ${PAGE_ROWS}`);
  const names = first.columnNames().slice(0, -1);
  const rows = first.getRowsJson().map((row) => row.slice(0, -1));
  const total = Number(first.getRowsJson()[0]?.at(-1) ?? 0);
  const table: Table = { columns: columnsOf(names, first.columnTypes().slice(0, -1)), rows };
  const body = section({
    id: 's-view',
    title: view.name,
    body: [
      tableTools({ label: view.name, csv: { href: `/view/${view.name}.csv` } }),
      rowsNote({ shown: rows.length, total, rest: 'the CSV has them all' }),
      dataTable({ ...sandboxTable(table), label: view.name, timeZone: ctx.config.timeZone }),
    ],
  });
  return servedPage(ctx, view.name, [view.description], html`${body}`);
}
