// The summary sheet, read top-down like an analyst's front page: heading (and the SIMULATED DATA banner), the key
// figures, the charts, then the small tables (top movers, waste, data freshness, accounts). Everything here is
// small, so each block is read whole and then written row by row through the streaming writer.
import type { Store } from '../../store/database.ts';
import { hasView } from '../../store/has-view.ts';
import { ReportDefinitionError, type ColumnDefinition, type SummarySheetDefinition } from '../definition/index.ts';
import { buildChart, type ChartFont, type RenderedChart } from '../charts/index.ts';
import { queryAll, type QueryParameters, type QueryResult } from '../query.ts';
import { cellStyle, COLORS, displayLength, formatText, humanize, inferFormat, isNumericFormat, STYLE, toCellValue, type CellValue, type ColumnFormat } from '../cells/index.ts';
import { headingRows, SIMULATED_LABEL, writeHeading, type Heading } from './sheet-heading.ts';
import { pageWidths, wrapStyle } from './page-width.ts';
import { addChangeColors, excelColumn } from './table-sheet.ts';
import type { XlsxWriter } from './xlsx-writer.ts';

export interface SummaryFigure {
  label: string;
  /** The exact value as DuckDB returned it (DECIMAL as a string). */
  value: unknown;
  format: ColumnFormat;
  text: string;
  note: string | undefined;
}

export interface SummaryResult {
  name: string;
  figures: SummaryFigure[];
  charts: RenderedChart[];
  queries: { what: string; sql: string }[];
}

type Cell = { value: CellValue; style: object; format?: ColumnFormat };
type Line = { cells: Cell[]; height?: number; changeCols?: number[] };

const ROW_PX = 20; // default row height (15 pt) in pixels
function noteText(template: string, result: QueryResult, row: unknown[], timeZone: string): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, field: string) => {
    const i = result.columns.findIndex((c) => c.name === field);
    if (i < 0) return whole;
    return formatText(row[i], inferFormat(result.columns[i]!.typeId, field), timeZone, { signed: /change/.test(field) });
  });
}

function tableLines(title: string, cols: ColumnDefinition[] | undefined, result: QueryResult, limit: number, emptyText: string, timeZone: string, where: string): Line[] {
  const defs: ColumnDefinition[] = cols ?? result.columns.map((c) => ({ field: c.name, dataBar: false, upIsBad: false }));
  const resolved = defs.map((d, i) => {
    const at = result.columns.findIndex((c) => c.name === d.field);
    if (at < 0) throw new ReportDefinitionError(`${where}.columns.${i + 1}.field: the query has no column '${d.field}' (it has ${result.columns.map((c) => c.name).join(', ')})`);
    return { at, header: d.header ?? humanize(d.field), format: d.format ?? inferFormat(result.columns[at]!.typeId, d.field), upIsBad: d.upIsBad };
  });
  const lines: Line[] = [{ cells: [{ value: title, style: STYLE.section }], height: 20 }];
  lines.push({ cells: resolved.map((c) => ({ value: c.header, style: isNumericFormat(c.format) ? STYLE.headerRight : STYLE.header })) });
  const changeCols = resolved.map((c, i) => (c.upIsBad ? i : -1)).filter((i) => i >= 0);
  for (const row of result.rows.slice(0, limit)) {
    lines.push({
      changeCols,
      cells: resolved.map((c) => {
        const value = toCellValue(row[c.at], c.format, timeZone);
        return { value, format: c.format, style: value === SIMULATED_LABEL ? STYLE.alert : cellStyle(c.format, { signed: c.upIsBad }) };
      }),
    });
  }
  if (result.rows.length === 0) lines.push({ cells: [{ value: emptyText, style: STYLE.note }] });
  if (result.rows.length > limit) lines.push({ cells: [{ value: `… and ${result.rows.length - limit} more`, style: STYLE.note }] });
  lines.push({ cells: [] });
  return lines;
}

export async function writeSummarySheet(
  writer: XlsxWriter,
  store: Store,
  def: SummarySheetDefinition,
  heading: Heading,
  ctx: { params: QueryParameters; timeZone: string; font: ChartFont; where: string },
): Promise<SummaryResult> {
  const figures: SummaryFigure[] = [];
  const queries: SummaryResult['queries'] = [];
  // the charts follow the first figures blocks (and any figures blocks right after them): blocks up to there go
  // above the charts, the rest below
  const before: Line[] = [];
  const after: Line[] = [];
  let seenFigures = false;
  let lastWasFigures = false;
  let placeAfter = false;
  for (const [j, block] of def.blocks.entries()) {
    const where = `${ctx.where}.blocks.${j + 1}`;
    if (block.requiresView !== undefined && !(await hasView(store, block.requiresView))) {
      queries.push({ what: `${block.title} – not shown: this database has no ${block.requiresView} yet`, sql: block.sql });
      continue;
    }
    const result = await queryAll(store, block.sql, ctx.params, where);
    queries.push({ what: block.title, sql: block.sql });
    if (seenFigures && !(block.kind === 'figures' && lastWasFigures)) placeAfter = true;
    const target = placeAfter ? after : before;
    lastWasFigures = block.kind === 'figures';
    if (block.kind === 'table') {
      target.push(...tableLines(block.title, block.columns, result, block.limit, block.emptyText, ctx.timeZone, where));
      continue;
    }
    seenFigures = true;
    const row = result.rows[0] ?? [];
    target.push({ cells: [{ value: block.title, style: STYLE.section }], height: 20 });
    block.items.forEach((item, k) => {
      const at = result.columns.findIndex((c) => c.name === item.field);
      if (at < 0) throw new ReportDefinitionError(`${where}.items.${k}.field: the query has no column '${item.field}' (it has ${result.columns.map((c) => c.name).join(', ')})`);
      const value = row[at] ?? null;
      if (value === null && item.hideIfNull) return;
      const format = item.format ?? inferFormat(result.columns[at]!.typeId, item.field);
      const note = item.note === undefined ? undefined : noteText(item.note, result, row, ctx.timeZone);
      figures.push({ label: item.label, value, format, text: formatText(value, format, ctx.timeZone, { signed: item.upIsBad }), note });
      const n = Number(value);
      const valueStyle =
        item.upIsBad && value !== null && n !== 0
          ? { ...cellStyle(format, { signed: true, big: true }), font: { bold: true, size: 13, color: { argb: n > 0 ? COLORS.increase : COLORS.decrease } } }
          : cellStyle(format, { big: true });
      target.push({
        height: 20,
        cells: [
          { value: item.label, style: STYLE.label },
          { value: toCellValue(value, format, ctx.timeZone), style: valueStyle, format },
          { value: note ?? null, style: STYLE.note },
        ],
      });
    });
    target.push({ cells: [] });
  }

  const charts: RenderedChart[] = [];
  for (const [j, c] of def.charts.entries()) {
    if (c.requiresView !== undefined && !(await hasView(store, c.requiresView))) {
      queries.push({ what: `${c.title} – not drawn: this database has no ${c.requiresView} yet`, sql: c.sql });
      continue;
    }
    charts.push(await buildChart(store, c, ctx.params, ctx.font, `${ctx.where}.charts.${j + 1}`));
    queries.push({ what: `chart: ${c.title}`, sql: c.sql });
  }

  // widths from table and figure lines; one-cell lines (section titles, notes) may overflow into empty cells
  const all = [...before, ...after].filter((l) => l.cells.length > 1);
  const ncols = Math.max(3, ...all.map((l) => l.cells.length));
  const natural = Array.from({ length: ncols }, (_, i) => {
    const w = Math.max(0, ...all.map((l) => (l.cells[i] ? displayLength(l.cells[i].value, l.cells[i].format ?? 'text') : 0)));
    return Math.min(i === 2 ? 24 : 48, Math.max(10, w + 2));
  });
  const widths = pageWidths(natural, Math.max(0, ...charts.map((c) => c.width)));
  const wrapped = widths.map((w, i) => w < natural[i]!);
  for (const l of [...before, ...after]) {
    if (l.cells.length < 2) continue;
    l.cells.forEach((c, i) => {
      if (wrapped[i] && (c.format ?? 'text') === 'text') c.style = wrapStyle(c.style);
    });
  }

  // the heading (title, period, banner) heads every printed page
  const ws = writer.addSheet(def.name, { showGridLines: false, tabColor: COLORS.headerFill, printTitleRows: { first: 1, last: headingRows(heading) } });
  ws.columns = widths.map((width) => ({ width }));
  let rowNo = writeHeading(ws, heading);
  const changeCells = new Map<number, string[]>();
  const put = (l: Line) => {
    const row = ws.addRow(l.cells.map((c) => c.value));
    l.cells.forEach((c, i) => (row.getCell(i + 1).style = c.style));
    if (l.height) row.height = l.height;
    row.commit();
    rowNo += 1;
    for (const i of l.changeCols ?? []) changeCells.set(i, [...(changeCells.get(i) ?? []), `${excelColumn(i + 1)}${rowNo}`]);
  };
  before.forEach(put);
  const images = [];
  for (const chart of charts) {
    images.push({ png: chart.png, col: 0, row: rowNo, width: chart.width, height: chart.height, name: chart.title });
    const rows = Math.ceil(chart.height / ROW_PX) + 1;
    for (let k = 0; k < rows; k++) put({ cells: [] });
  }
  after.forEach(put);
  for (const [i, cells] of changeCells) addChangeColors(ws, cells.join(' '), 50 + i);
  writer.addImages(ws, images);
  ws.commit();
  return { name: def.name, figures, charts, queries };
}
