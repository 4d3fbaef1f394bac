// The sections of an HTML report: the summary (figures, charts as inline SVG – the very SVG the workbook's PNGs are
// rasterised from – and the small tables) and one section per table sheet, composed from the presentation layer
// (src/present). A column that links to another sheet links to that sheet's section, filtered to the cell's value
// (the page script fills the filter from data-filter).
import { chartRow, dataTable, html, sectionId, section, tableTools, rowsNote, type Markup, type TableColumn } from '../../present/index.ts';
import { cellText } from '../../util/table-text.ts';
import type { ColumnFormat } from '../cells/index.ts';
import type { SummaryBlock, SummaryContent } from '../summary-content.ts';

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
  /** A link of each cell to another page, as data (serve's drill-down); linksTo wins when both are given. */
  link?: TableColumn['link'];
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

/** A report column as a page column: its format is its unit; a link to a sheet is a link to its section. */
function pageColumn(c: HtmlColumn): TableColumn {
  const target = c.linksTo;
  return {
    field: c.field,
    header: c.header,
    unit: c.format,
    upIsBad: c.upIsBad,
    total: c.total,
    dataBar: c.dataBar,
    // '(none)' is the views' label for cost nothing explains, not a name the linked section holds
    link: target === undefined ? c.link : (value) => (value === '(none)' ? undefined : { href: `#${sectionId(target)}`, filter: cellText(value) }),
  };
}

/** A report table as the presentation layer's table (serve's pages draw theirs with present's dataTable). */
export function pageTable(t: HtmlTable, timeZone: string, label: string, options: { stack?: boolean } = {}): Markup {
  return dataTable({ columns: t.columns.map(pageColumn), rows: t.rows, totals: t.totals, totalRows: t.totalRows, emptyText: t.emptyText, label, timeZone, stack: options.stack });
}

/** A report table as HTML text. */
export function tableHtml(t: HtmlTable, timeZone: string, label: string): string {
  return pageTable(t, timeZone, label).text;
}

export interface TableSectionInput {
  name: string;
  title: string;
  description?: string;
  table: HtmlTable;
  csvName: string;
  timeZone: string;
  /** Where the rows the section leaves out can be had. */
  rest?: string;
  /** With a server: every row as CSV from there. */
  csvHref?: string;
}

export function tableSection(o: TableSectionInput): Markup {
  // with a server, every row comes from it; a file downloads the rows it holds (the filter applies)
  const csv = o.csvHref ? { href: o.csvHref } : { fileName: o.csvName, rows: o.table.rows.length };
  return section({
    id: sectionId(o.name),
    title: o.title,
    lines: o.description ? [o.description] : [],
    body: [
      tableTools({ label: o.title, csv }),
      rowsNote({ shown: o.table.rows.length, total: o.table.totalRows, totalsOfAll: o.table.totals !== undefined, rest: o.rest }),
      pageTable(o.table, o.timeZone, o.title),
    ],
  });
}

function blockHtml(b: SummaryBlock, timeZone: string): Markup {
  if (b.kind === 'figures') {
    const items = b.figures.map((f) => {
      const n = Number(f.value);
      const tone = f.upIsBad && f.value !== null && n !== 0 ? (n > 0 ? ' up' : ' down') : '';
      return html`<div class="figure"><div class="label">${f.label}</div><div class="value${tone}" data-v="${cellText(f.value)}">${f.text}</div>${f.note ? html`<div class="fnote">${f.note}</div>` : ''}</div>`;
    });
    return html`<h3>${b.title}</h3><div class="figures">${items}</div>`;
  }
  const t: HtmlTable = { columns: b.columns, rows: b.rows, totalRows: b.rows.length + b.more, emptyText: b.emptyText };
  const more = b.more > 0 ? html`<p class="note">… and ${b.more} more</p>` : '';
  return html`<h3>${b.title}</h3>${pageTable(t, timeZone, b.title)}${more}`;
}

export function summarySection(content: SummaryContent, o: { title: string; lines: readonly string[]; timeZone: string }): Markup {
  // the chart as drawn by src/report/charts in present's `svg` template, its labels escaped there
  const charts = chartRow(content.charts.map((c) => ({ title: c.title, svg: c.chart })));
  return section({
    id: sectionId(content.name),
    title: o.title,
    lines: o.lines,
    body: [content.before.map((b) => blockHtml(b, o.timeZone)), charts, content.after.map((b) => blockHtml(b, o.timeZone))],
  });
}
