// Allocation in `serve`: category → value → the resources the rules put there, each with the rule that did it and the
// keys it matched on (the same SQL as `gpuledger allocation explain`), so a figure on the By category sheet can be
// followed to the resources and rules behind it.
import { breadcrumbs, dataTable, hrefWith, html, section, type Link, type Markup, type TableColumn } from '../present/index.ts';
import { queryAll } from '../report/index.ts';
import { readSqlFile } from '../transform/sql-files.ts';
import type { Store } from '../store/database.ts';
import { resultTable, servedPage, type PageContext } from './pages.ts';

const href = (params: { category: string; value: string }) => hrefWith('/allocation', params);

export async function allocationPage(store: Store, ctx: PageContext): Promise<string> {
  const category = ctx.url.searchParams.get('category') ?? undefined;
  const value = ctx.url.searchParams.get('value') ?? undefined;
  const crumbs: Link[] = [{ label: 'All categories', href: '/allocation' }];
  let body: Markup;
  if (category === undefined || value === undefined) {
    const result = await queryAll(store, 'select account, category, value, month_to_date, previous_month_to_date, share_pct from rpt_by_category order by account, category, month_to_date desc, value', {}, 'allocation');
    const table = resultTable(result, { emptyText: 'No allocation categories configured (allocation.categories in the config).' });
    // each value links to the resources the rules put there
    table.columns = table.columns.map((c): TableColumn => (c.field === 'value' ? { ...c, link: (v, row) => ({ href: href({ category: String(row[1]), value: String(v) }) }) } : c));
    body = section({ id: 's-categories', title: 'Month to date by category and value', body: dataTable({ ...table, label: 'allocation by category', timeZone: ctx.config.timeZone }) });
  } else {
    crumbs.push({ label: `${category}: ${value}`, href: href({ category, value }) });
    const explain = readSqlFile('allocation', 'explain_resources').trim().replace(/;\s*$/, '');
    // the SQL of `allocation explain` ($1 category, $2 resource), narrowed to the value ($3)
    const reader = await store.connection.runAndReadAll(
      `select account, family, resource_id, resource_name, rule, matched_on, amount from (\n${explain}\n) as e where value = $3::varchar order by amount desc, resource_id`,
      [category, null, value],
    );
    const result = { columns: reader.columnNames().map((name, i) => ({ name, typeId: reader.columnTypes()[i]!.typeId })), rows: reader.getRowsJson() as unknown[][] };
    const note = html`<p class="sub">The rule that put each there (null: the category's default) and the keys it matched on; amounts over all history, before splits – as <code>gpuledger allocation explain --category ${category}</code>.</p>`;
    body = section({ id: 's-resources', title: `Resources allocated to ${category} = ${value}`, body: [note, dataTable({ ...resultTable(result, { emptyText: 'No resource is allocated to this value.' }), label: 'resources', timeZone: ctx.config.timeZone })] });
  }
  return servedPage(ctx, 'Allocation', ["Categories and values as the config's allocation rules give them."], html`${breadcrumbs('Allocation path', crumbs)}${body}`);
}
