// The sections of an HTML report: the summary (figures, charts as inline SVG – the very SVG the workbook's PNGs are
// rasterised from – and the small tables) and one section per table sheet. Every table sorts, filters and downloads
// its rows as CSV (page script, assets.ts); each cell carries its exact value in data-v, which is what sorting, the
// CSV and the tests comparing the page with the workbook read, and shows the same text the workbook's format shows.
import { cellText } from '../../util/table-text.ts';
import { formatText, isNumericFormat, toCellValue, type ColumnFormat } from '../cells/index.ts';
import type { SummaryBlock, SummaryContent } from '../summary-content.ts';
import { SIMULATED_LABEL } from '../workbook/index.ts';
import { esc, sectionId } from './page.ts';


export interface HtmlColumn {
  field: string;
  header: string;
  format: ColumnFormat;
  upIsBad: boolean;
  total?: 'sum' | 'label';
  /** A sheet whose section this column's values link to, filtered to the value. */
  linksTo?: string;
  /** The column the workbook draws a data bar in: the table's headline amount. */
  dataBar?: boolean;
}

export interface HtmlTable {
  columns: HtmlColumn[];
  /** JSON values of DuckDB, in the columns' order. */
  rows: unknown[][];
  /** Rows of the whole result (more than `rows` when the section shows only the first ones). */
  totalRows: number;
  /** Exact totals of the summed columns. */
  totals?: Record<string, unknown>;
  emptyText: string;
}


function cell(value: unknown, c: HtmlColumn, timeZone: string, layout: string): string {
  // booleans read as the workbook shows them (Yes/No); everything else as the workbook's number formats show it
  const text = c.format === 'boolean' && typeof value === 'boolean' ? String(toCellValue(value, 'boolean', timeZone)) : formatText(value, c.format, timeZone, { signed: c.upIsBad });
  const classes = [layout, isNumericFormat(c.format) ? 'num' : '', c.upIsBad && Number(value) > 0 ? 'up' : '', c.upIsBad && Number(value) < 0 ? 'down' : '', value === SIMULATED_LABEL ? 'sim' : '']
    .filter(Boolean)
    .join(' ');
  // '(none)' is the views' label for cost nothing explains, not a name the linked section holds
  const inner = c.linksTo && value !== null && value !== undefined && value !== '(none)' ? `<a href="#${sectionId(c.linksTo)}" data-filter="${esc(cellText(value))}">${esc(text)}</a>` : esc(text);
  return `<td${classes ? ` class="${classes}"` : ''} data-v="${esc(cellText(value))}">${inner}</td>`;
}

/** Text this long in a column makes it wrap instead of widening the table past the screen. */
const WRAP_AT = 60;
// a name column, most telling first: a linked column, then *_name, then the resource-like ones, then a finding's kind
const NAME_FIELDS = [/(^|_)name$/, /^(resource|endpoint|template|view|metric|category|value|dimension|title)$/, /^(kind|finding)$/];
const MINOR_FIELD = /(^|_)id$|^(account|bucket_size|attribution|basis)$/;

/**
 * Which columns a reader must never lose: the name (pinned left once the table scrolls) and the headline amount
 * (pinned right, so it is never the one that falls off); long text wraps. On a phone only those two (and a leading
 * day) show until "All columns" is pressed – `minor` marks the rest.
 */
export function columnLayout(t: Pick<HtmlTable, 'columns' | 'rows'>): string[] {
  const cols = t.columns;
  const money = cols.flatMap((c, i) => (c.format === 'usd' ? [i] : []));
  const amount = money.find((i) => cols[i]!.dataBar) ?? money.find((i) => cols[i]!.total === 'sum') ?? money[0];
  const longest = cols.map((_, i) => t.rows.reduce((m, r) => Math.max(m, cellText(r[i]).length), 0));
  const wraps = cols.map((c, i) => c.format === 'text' && longest[i]! > WRAP_AT);
  const texts = cols.flatMap((c, i) => (!isNumericFormat(c.format) && c.format !== 'date' && c.format !== 'datetime' && !wraps[i] ? [i] : []));
  const name =
    texts.find((i) => cols[i]!.linksTo) ??
    NAME_FIELDS.map((re) => texts.find((i) => re.test(cols[i]!.field))).find((i) => i !== undefined) ??
    texts.find((i) => !MINOR_FIELD.test(cols[i]!.field));
  const leadingDay = cols[0] && (cols[0].format === 'date' || cols[0].field === 'day') ? 0 : undefined;
  const pin = cols.length > 3;
  return cols.map((_, i) => {
    const classes: string[] = [];
    if (pin && i === name) classes.push('pin-l');
    if (pin && i === amount) classes.push('pin-r');
    if (wraps[i]) classes.push('wrap');
    if (i !== name && i !== amount && i !== leadingDay && (name !== undefined || amount !== undefined)) classes.push('minor');
    return classes.join(' ');
  });
}

export function tableHtml(t: HtmlTable, timeZone: string, label: string): string {
  const layout = columnLayout(t);
  const cls = (i: number, extra = '') => {
    const all = [layout[i]!.replace('wrap', ''), extra].join(' ').trim().replace(/\s+/g, ' ');
    return all ? ` class="${all}"` : '';
  };
  const head = t.columns
    .map((c, i) => `<th scope="col" data-field="${esc(c.field)}" aria-sort="none"${cls(i, isNumericFormat(c.format) ? 'num' : '')}><button type="button">${esc(c.header)}</button></th>`)
    .join('');
  const hasTotals = t.totals !== undefined && t.columns.some((c) => c.total === 'sum');
  const totals = hasTotals
    ? `<tr class="totals">${t.columns
        .map((c, i) => {
          if (c.total === 'label') return `<th scope="row"${cls(i)}>${t.totalRows > 0 ? 'Total' : 'Total (no rows)'}</th>`;
          if (c.total !== 'sum') return `<th${cls(i)}></th>`;
          const v = t.totals![c.field] ?? 0;
          // data-fmt: the page script re-adds the shown rows under a filter and writes the total the same way
          return `<th${cls(i, 'num')} data-v="${esc(cellText(v))}" data-fmt="${c.format}"${c.upIsBad ? ' data-signed="1"' : ''}>${esc(formatText(v, c.format, timeZone, { signed: c.upIsBad }))}</th>`;
        })
        .join('')}</tr>`
    : '';
  const body = t.rows.map((r) => `<tr>${t.columns.map((c, i) => cell(r[i], c, timeZone, layout[i]!)).join('')}</tr>`).join('\n');
  const empty = t.rows.length === 0 ? `<p class="note">${esc(t.emptyText)}</p>` : '';
  const phone = layout.some((l) => l.includes('minor')) ? '<button type="button" class="all-cols" aria-pressed="false">All columns</button>' : '';
  return `${phone}<p class="cue" hidden></p><div class="scroll" tabindex="0" role="region" aria-label="${esc(label)}"><table class="data${layout.some((l) => l.includes('wrap')) ? ' fit' : ''}"><thead><tr class="names">${head}</tr>${totals}</thead><tbody>\n${body}\n</tbody></table></div>${empty}`;
}

function tools(name: string, csvName: string, shown: number, csvHref?: string): string {
  // with a server, every row comes from it; a file downloads the rows it holds (the filter applies)
  const download = csvHref
    ? `<a class="button" href="${esc(csvHref)}" download>Download CSV</a>`
    : `<button type="button" data-csv="${esc(csvName)}">Download CSV${shown > 0 ? '' : ' (no rows)'}</button>`;
  return `<div class="tools"><input type="search" data-filter-table placeholder="Filter rows" aria-label="Filter the rows of ${esc(name)}">${download}<span class="count" aria-live="polite"></span></div>`;
}

export function tableSection(o: { name: string; title: string; description?: string; lines: string[]; table: HtmlTable; csvName: string; timeZone: string; moreNote?: string; csvHref?: string }): string {
  const more = o.table.totalRows > o.table.rows.length ? `<p class="note">${esc(o.moreNote ?? `The first ${o.table.rows.length.toLocaleString('en-US')} of ${o.table.totalRows.toLocaleString('en-US')} rows.`)}</p>` : '';
  return (
    `<section id="${sectionId(o.name)}" aria-labelledby="${sectionId(o.name)}-h"><h2 id="${sectionId(o.name)}-h">${esc(o.title)}</h2>` +
    (o.description ? `<p class="sub">${esc(o.description)}</p>` : '') +
    o.lines.map((l) => `<p class="sub">${esc(l)}</p>`).join('') +
    tools(o.title, o.csvName, o.table.rows.length, o.csvHref) +
    more +
    tableHtml(o.table, o.timeZone, o.title) +
    '</section>\n'
  );
}

function blockHtml(b: SummaryBlock, timeZone: string): string {
  if (b.kind === 'figures') {
    const items = b.figures
      .map((f) => {
        const n = Number(f.value);
        const tone = f.upIsBad && f.value !== null && n !== 0 ? (n > 0 ? ' up' : ' down') : '';
        return `<div class="figure"><div class="label">${esc(f.label)}</div><div class="value${tone}" data-v="${esc(cellText(f.value))}">${esc(f.text)}</div>${f.note ? `<div class="fnote">${esc(f.note)}</div>` : ''}</div>`;
      })
      .join('');
    return `<h3>${esc(b.title)}</h3><div class="figures">${items}</div>`;
  }
  const table: HtmlTable = { columns: b.columns, rows: b.rows, totalRows: b.rows.length + b.more, emptyText: b.emptyText };
  const more = b.more > 0 ? `<p class="note">… and ${b.more} more</p>` : '';
  return `<h3>${esc(b.title)}</h3>${tableHtml(table, timeZone, b.title)}${more}`;
}

export function summarySection(content: SummaryContent, o: { title: string; lines: readonly string[]; timeZone: string }): string {
  const charts = content.charts.length
    ? `<div class="charts">${content.charts.map((c) => `<figure class="chart" aria-label="${esc(c.title)}">${c.svg}</figure>`).join('')}</div>`
    : '';
  return (
    `<section id="${sectionId(content.name)}" aria-labelledby="${sectionId(content.name)}-h"><h2 id="${sectionId(content.name)}-h">${esc(o.title)}</h2>` +
    o.lines.map((l) => `<p class="sub">${esc(l)}</p>`).join('') +
    content.before.map((b) => blockHtml(b, o.timeZone)).join('') +
    charts +
    content.after.map((b) => blockHtml(b, o.timeZone)).join('') +
    '</section>\n'
  );
}
