// A table of a page: columns (heading, unit, link) and rows of exact values. Each cell shows its value in its
// column's unit and keeps the exact value in data-v – what sorting, the filter's totals, the CSV download and the
// tests comparing the page with the workbook read. Headings sort (page script); a summed column gets a totals row.
import { cellText } from '../util/table-text.ts';
import { html, type Markup } from './html.ts';
import { SIMULATED_LABEL } from './simulated.ts';
import { isNewRow, newRowColumns, NEW_ROW_TEXT } from './new-row.ts';
import { isNumberColumn, type TableColumn } from './table-column.ts';
import { columnLayout } from './table-layout.ts';
import { totalsRow } from './table-totals.ts';
import { valueText } from './value-text.ts';

export interface TableInput {
  columns: readonly TableColumn[];
  /** Exact values (DuckDB's JSON values), in the columns' order. */
  rows: readonly (readonly unknown[])[];
  /** Exact totals of the summed columns, over every row of the result. */
  totals?: Record<string, unknown>;
  /** Rows of the whole result (more than rows.length when only the first are shown). */
  totalRows?: number;
  emptyText: string;
  /** What the table is, for assistive technology. */
  label: string;
  /** A log of records (the alert history): on a phone each row is a card of its fields, each named, none hidden. */
  stack?: boolean;
  timeZone: string;
}

const attr = (cls: string) => (cls ? html` class="${cls}"` : '');

function cell(value: unknown, row: readonly unknown[], c: TableColumn, layout: string, timeZone: string, stack: boolean, isNew = false): Markup {
  // booleans read as the workbook shows them (Yes/No); a new row's percent change "new" (new-row.ts); everything
  // else as its unit reads
  const text = isNew ? NEW_ROW_TEXT : c.unit === 'boolean' && typeof value === 'boolean' ? (value ? 'Yes' : 'No') : valueText(value, c.unit, timeZone, { signed: c.upIsBad });
  const n = Number(value);
  const classes = [layout, isNumberColumn(c) ? 'num' : '', c.upIsBad && n > 0 ? 'up' : '', c.upIsBad && n < 0 ? 'down' : '', value === SIMULATED_LABEL ? 'sim' : ''].filter(Boolean).join(' ');
  const link = value === null || value === undefined ? undefined : c.link?.(value, row);
  const inner = link ? html`<a href="${link.href}"${link.filter !== undefined ? html` data-filter="${link.filter}"` : ''}>${text}</a>` : text;
  return html`<td${attr(classes)} data-v="${cellText(value)}"${stack ? html` data-label="${c.header}"` : ''}>${inner}</td>`;
}

export function dataTable(t: TableInput): Markup {
  const stack = t.stack === true;
  // a card shows every field: nothing is minor
  const layout = columnLayout(t.columns, t.rows).map((l) => (stack ? l.replace(/\b(minor|lesser)\b/g, '').replace(/\s+/g, ' ').trim() : l));
  // pinning classes and 'num' go on the heads; wrapping is for the body's cells only
  const classOf = (i: number, extra = '') => [layout[i]!.replace('wrap', ''), extra].join(' ').trim().replace(/\s+/g, ' ');
  const head = t.columns.map((c, i) => html`<th scope="col" data-field="${c.field}" aria-sort="none"${attr(classOf(i, isNumberColumn(c) ? 'num' : ''))}><button type="button">${c.header}</button></th>`);
  const totals = t.totals !== undefined && t.columns.some((c) => c.total === 'sum') ? totalsRow(t.columns, t.totals, { totalRows: t.totalRows ?? t.rows.length, timeZone: t.timeZone, classOf }) : '';
  const marks = newRowColumns(t.columns);
  const isNew = (r: readonly unknown[], i: number) => marks !== undefined && (r[i] === null || r[i] === undefined) && marks.percent.includes(i) && isNewRow(marks, r);
  const body = t.rows.map((r) => html`<tr>${t.columns.map((c, i) => cell(r[i], r, c, layout[i]!, t.timeZone, stack, isNew(r, i)))}</tr>
`);
  const empty = t.rows.length === 0 ? html`<p class="note">${t.emptyText}</p>` : '';
  const phone = layout.some((l) => l.includes('minor')) ? html`<button type="button" class="all-cols" aria-pressed="false">All columns</button>` : '';
  const fit = layout.some((l) => l.includes('wrap')) ? ' fit' : '';
  return html`${phone}<p class="cue" hidden></p><div class="scroll${stack ? ' stack' : ''}" tabindex="0" role="region" aria-label="${t.label}"><table class="data${fit}"><thead><tr class="names">${head}</tr>${totals}</thead><tbody>
${body}</tbody></table></div>${empty}`;
}
