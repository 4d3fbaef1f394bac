// The summary sheet, read top-down like an analyst's front page: heading (and the SIMULATED DATA banner), the key
// figures, the charts, then the small tables (top movers, waste, data freshness, accounts). What it says is read by
// summary-content.ts (the HTML report draws the same model); here it becomes rows through the streaming writer.
import type ExcelJS from 'exceljs';
import { cellStyle, COLORS, displayLength, isNumericFormat, STYLE, toCellValue, withinCell, type CellValue, type ColumnFormat } from '../cells/index.ts';
import { isNewRow, newRowColumns, NEW_ROW_TEXT } from '../../present/index.ts';
import type { SummaryBlock, SummaryContent } from '../summary-content.ts';
import { headingPoints, headingRows, SIMULATED_LABEL, writeHeading, type Heading } from './sheet-heading.ts';
import { pagePoints, PT_PER_PX } from './print-page.ts';
import { pageWidths, topAligned, widthPx, wrappedRowHeight, wrapStyle } from './page-width.ts';
import { addChangeColors, excelColumn } from './table-sheet.ts';
import type { XlsxWriter } from './xlsx-writer.ts';

export type { SummaryFigure } from '../summary-content.ts';

type Cell = { value: CellValue; style: object; format?: ColumnFormat };
type Line = { cells: Cell[]; height?: number; changeCols?: number[] };

const ROW_PX = 20; // default row height (15 pt) in pixels
const ROW_PT = 15;
const LINE_HEIGHT = 20; // a key figure's line (its value is 13 pt): taller, it holds wrapped text

// the SIMULATED DATA label is bold 12 pt capitals, about half as wide again as the 11 pt digits a column's width
// counts: measured as plain text its column was too narrow, and printed it read "SIMULATED DA"
const ALERT_WIDTH = 1.5;

/** The characters a cell needs of its column's width. */
function cellChars(c: Cell): number {
  const n = displayLength(c.value, c.format ?? 'text');
  return c.style === STYLE.alert ? Math.ceil(n * ALERT_WIDTH) : n;
}

function blockLines(block: SummaryBlock, timeZone: string): Line[] {
  const lines: Line[] = [{ cells: [{ value: withinCell(block.title), style: STYLE.section }], height: 20 }];
  if (block.kind === 'table') {
    lines.push({ cells: block.columns.map((c) => ({ value: c.header, style: isNumericFormat(c.format) ? STYLE.headerRight : STYLE.header })) });
    const changeCols = block.columns.map((c, i) => (c.upIsBad ? i : -1)).filter((i) => i >= 0);
    // a new row's percent change reads "new" (present/new-row.ts), as on the page
    const marks = newRowColumns(block.columns.map((c) => ({ unit: c.format, upIsBad: c.upIsBad })));
    for (const row of block.rows) {
      const isNew = marks !== undefined && isNewRow(marks, row);
      lines.push({
        changeCols,
        cells: block.columns.map((c, i) => {
          const value = isNew && marks.percent.includes(i) && (row[i] === null || row[i] === undefined) ? NEW_ROW_TEXT : toCellValue(row[i], c.format, timeZone);
          return { value, format: c.format, style: value === SIMULATED_LABEL ? STYLE.alert : cellStyle(c.format, { signed: c.upIsBad }) };
        }),
      });
    }
    if (block.rows.length === 0) lines.push({ cells: [{ value: block.emptyText, style: STYLE.note }] });
    if (block.more > 0) lines.push({ cells: [{ value: `… and ${block.more} more`, style: STYLE.note }] });
    lines.push({ cells: [] });
    return lines;
  }
  for (const f of block.figures) {
    const n = Number(f.value);
    const valueStyle =
      f.upIsBad && f.value !== null && n !== 0
        ? { ...cellStyle(f.format, { signed: true, big: true }), font: { bold: true, size: 13, color: { argb: n > 0 ? COLORS.increase : COLORS.decrease } } }
        : cellStyle(f.format, { big: true });
    lines.push({
      height: LINE_HEIGHT,
      cells: [
        { value: f.label, style: STYLE.label },
        { value: toCellValue(f.value, f.format, timeZone), style: valueStyle, format: f.format },
        { value: f.note === undefined ? null : withinCell(f.note), style: STYLE.note },
      ],
    });
  }
  lines.push({ cells: [] });
  return lines;
}

/** Writes the summary sheet of content read by readSummary (summary-content.ts). */
export function writeSummarySheet(writer: XlsxWriter, content: SummaryContent, heading: Heading, timeZone: string): void {
  const before = content.before.flatMap((b) => blockLines(b, timeZone));
  const after = content.after.flatMap((b) => blockLines(b, timeZone));
  const charts = content.charts;

  // widths from table and figure lines; one-cell lines (section titles, notes) may overflow into empty cells
  const all = [...before, ...after].filter((l) => l.cells.length > 1);
  const ncols = Math.max(3, ...all.map((l) => l.cells.length));
  const natural = Array.from({ length: ncols }, (_, i) => {
    const w = Math.max(0, ...all.map((l) => (l.cells[i] ? cellChars(l.cells[i]) : 0)));
    return Math.min(i === 2 ? 24 : 48, Math.max(10, w + 2));
  });
  // the SIMULATED DATA label never wraps: narrowed, it printed on two lines or clipped
  const floors = natural.map((_, i) => Math.max(0, ...all.map((l) => (l.cells[i]?.style === STYLE.alert ? cellChars(l.cells[i]) + 2 : 0))));
  const widths = pageWidths(natural, Math.max(0, ...charts.map((c) => c.width)), floors);
  const wrapped = widths.map((w, i) => w < natural[i]!);
  for (const l of [...before, ...after]) {
    if (l.cells.length < 2) continue;
    const texts: { text: string; width: number }[] = [];
    l.cells.forEach((c, i) => {
      if (!wrapped[i] || (c.format ?? 'text') !== 'text') return;
      c.style = wrapStyle(c.style);
      if (typeof c.value === 'string') texts.push({ text: c.value, width: widths[i]! });
    });
    if (texts.length) l.height = wrappedRowHeight(texts, l.height ?? 15);
    // a line grown to hold wrapped text prints as one line only with every cell at its top (page-width.ts)
    if ((l.height ?? 15) > LINE_HEIGHT) for (const c of l.cells) c.style = topAligned(c.style);
  }

  // the heading (title, period, banner) heads every printed page
  const ws = writer.addSheet(content.name, { showGridLines: false, tabColor: COLORS.headerFill, printTitleRows: { first: 1, last: headingRows(heading) } });
  ws.columns = widths.map((width) => ({ width }));
  let rowNo = writeHeading(ws, heading);
  // where the printed page stands: a chart that would reach past its foot starts the next page instead, so no page
  // break cuts it (the heading heads every page, so each holds that much less)
  const page = pagePoints(widths.reduce((a, w) => a + widthPx(w), 0));
  const titles = headingPoints(heading);
  let used = titles;
  let last: ExcelJS.Row | undefined;
  const changeCells = new Map<number, string[]>();
  const put = (l: Line) => {
    const row = ws.addRow(l.cells.map((c) => c.value));
    l.cells.forEach((c, i) => (row.getCell(i + 1).style = c.style));
    if (l.height) row.height = l.height;
    row.commit();
    rowNo += 1;
    used += l.height ?? ROW_PT;
    if (used > page) used = titles + (l.height ?? ROW_PT);
    last = row;
    for (const i of l.changeCols ?? []) changeCells.set(i, [...(changeCells.get(i) ?? []), `${excelColumn(i + 1)}${rowNo}`]);
  };
  before.forEach(put);
  const images = [];
  for (const chart of charts) {
    const rows = Math.ceil(chart.height / ROW_PX) + 1;
    if (last && used + chart.height * PT_PER_PX > page) {
      // the chart starts one row below the break: a picture whose top lies on a page's last line is drawn on that
      // page too (clipped), and it should belong to one page only
      last.addPageBreak();
      used = titles;
      put({ cells: [] });
    }
    images.push({ png: chart.png, col: 0, row: rowNo, width: chart.width, height: chart.height, name: chart.title });
    for (let k = 0; k < rows; k++) put({ cells: [] });
  }
  after.forEach(put);
  for (const [i, cells] of changeCells) addChangeColors(ws, cells.join(' '), 50 + i);
  writer.addImages(ws, images);
  ws.commit();
}
