// The totals row of a table, in its head so it stays in sight: the exact total of every summed column over all the
// result's rows (not only the shown ones). data-fmt and data-signed let the page script write the total of the rows
// a filter leaves the same way (browser/page-script.ts).
import { cellText } from '../util/table-text.ts';
import { html, type Markup } from './html.ts';
import type { TableColumn } from './table-column.ts';
import { valueText } from './value-text.ts';

export function totalsRow(columns: readonly TableColumn[], totals: Record<string, unknown>, o: { totalRows: number; timeZone: string; classOf: (i: number, extra?: string) => string }): Markup {
  const attr = (cls: string) => (cls ? html` class="${cls}"` : '');
  const cells = columns.map((c, i) => {
    if (c.total === 'label') return html`<th scope="row"${attr(o.classOf(i))}>${o.totalRows > 0 ? 'Total' : 'Total (no rows)'}</th>`;
    if (c.total !== 'sum') return html`<th${attr(o.classOf(i))}></th>`;
    const v = totals[c.field] ?? 0;
    return html`<th${attr(o.classOf(i, 'num'))} data-v="${cellText(v)}" data-fmt="${c.unit}"${c.upIsBad ? html` data-signed="1"` : ''}>${valueText(v, c.unit, o.timeZone, { signed: c.upIsBad })}</th>`;
  });
  return html`<tr class="totals">${cells}</tr>`;
}
