// Allocation in `serve`: category → value → the resources the rules put there, each with the rule that did it and the
// keys it matched on (the same SQL as `gpuledger allocation explain`), so a figure on the By category sheet can be
// followed to the resources and rules behind it.
import { esc, queryAll, tableHtml } from '../report/index.ts';
import { readSqlFile } from '../transform/sql-files.ts';
import type { Store } from '../store/database.ts';
import { resultTable, shell, type PageContext } from './pages.ts';

const href = (params: Record<string, string>) => `/allocation?${new URLSearchParams(params)}`;

export async function allocationPage(store: Store, ctx: PageContext): Promise<string> {
  const category = ctx.url.searchParams.get('category') ?? undefined;
  const value = ctx.url.searchParams.get('value') ?? undefined;
  const crumbs: Array<[string, string]> = [['All categories', '/allocation']];
  let body: string;
  if (category === undefined || value === undefined) {
    const result = await queryAll(store, 'select account, category, value, month_to_date, previous_month_to_date, share_pct from rpt_by_category order by account, category, month_to_date desc, value', {}, 'allocation');
    const table = resultTable(result, { emptyText: 'No allocation categories configured (allocation.categories in the config).' });
    let i = 0;
    // each value links to the resources the rules put there
    const html = tableHtml(table, ctx.config.timeZone, 'allocation by category').replace(/<tr>((?:<td[^>]*>[^<]*<\/td>){2})<td([^>]*)>([^<]*)<\/td>/g, (_m, before: string, attrs: string, text: string) => {
      const row = table.rows[i++]!;
      return `<tr>${before}<td${attrs}><a href="${esc(href({ category: String(row[1]), value: String(row[2]) }))}">${text}</a></td>`;
    });
    body = `<section id="s-categories"><h2>Month to date by category and value</h2>${html}</section>`;
  } else {
    crumbs.push([`${category}: ${value}`, href({ category, value })]);
    const explain = readSqlFile('allocation', 'explain_resources').trim().replace(/;\s*$/, '');
    // the SQL of `allocation explain` ($1 category, $2 resource), narrowed to the value ($3)
    const reader = await store.connection.runAndReadAll(
      `select account, family, resource_id, resource_name, rule, matched_on, amount from (\n${explain}\n) as e where value = $3::varchar order by amount desc, resource_id`,
      [category, null, value],
    );
    const result = { columns: reader.columnNames().map((name, i) => ({ name, typeId: reader.columnTypes()[i]!.typeId })), rows: reader.getRowsJson() as unknown[][] };
    body = `<section id="s-resources"><h2>Resources allocated to ${esc(category)} = ${esc(value)}</h2><p class="sub">The rule that put each there (null: the category's default) and the keys it matched on; amounts over all history, before splits – as <code>gpuledger allocation explain --category ${esc(category)}</code>.</p>${tableHtml(resultTable(result, { emptyText: 'No resource is allocated to this value.' }), ctx.config.timeZone, 'resources')}</section>`;
  }
  const nav = `<nav aria-label="Allocation path"><p>${crumbs.map(([label, link]) => `<a href="${esc(link)}">${esc(label)}</a>`).join(' › ')}</p></nav>`;
  return shell(ctx, 'Allocation', ['Categories and values as the config\'s allocation rules give them.'], nav + body);
}
