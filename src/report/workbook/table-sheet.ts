// A table sheet: heading, a totals row and the header row (both frozen, so the totals stay in view), then the
// query's rows. With streaming, column widths and the totals row must be known before the first data row:
//  - small results (the first 20,000 rows end the query): read once, totals summed exactly from the DECIMAL values,
//    widths measured, then written;
//  - large results (`large: true`, or more rows than that): one aggregate SQL pass over the same query gives the
//    row count, the exact totals and the widest value per column, then the rows stream from DuckDB chunk by chunk
//    and are committed as they come – never the whole result in memory.
// Either way the totals row is a SUM formula whose cached value is the exact total, equal to SQL to the cent.
import { isNewRow, newRowColumns, NEW_ROW_TEXT } from '../../present/index.ts';
import type { Store } from '../../store/database.ts';
import { ReportDefinitionError } from '../definition/index.ts';
import type { DuckDBValue } from '@duckdb/node-api';
import { lowerMemoryLimit, streamUnderLimit, underLimit } from '../memory-budget.ts';
import { queryColumns, type QueryParameters } from '../query.ts';
import { cellStyle, COLORS, isNumericFormat, rawConverter, STYLE, toCellValue, type CellValue, type RawConverter } from '../cells/index.ts';
import { resolveColumns } from '../table-columns.ts';
import { topAligned, wrappedRowHeight, wrapStyle } from './page-width.ts';
import { headingRows, writeHeading } from './sheet-heading.ts';
import { fitWidth, readSmall, sqlStats, type Stats } from './table-stats.ts';
import type { SheetWriter, XlsxWriter } from './xlsx-writer.ts';
import type { ResolvedColumn, TableSheetSpec } from './table-spec.ts';

export type { ResolvedColumn, TableSheetSpec } from './table-spec.ts';

export interface TableSheetResult {
  name: string;
  sql: string;
  rows: number;
  headerRow: number;
  firstDataRow: number;
  lastDataRow: number;
  columns: ResolvedColumn[];
  /** Exact totals of the summed columns (DECIMAL text, as DuckDB would print the SUM). */
  totals: Record<string, string | number | null>;
}

export function excelColumn(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** Write one table sheet from its query; the sheet is committed when this returns. */
export async function writeTableSheet(
  writer: XlsxWriter,
  store: Store,
  spec: TableSheetSpec,
  params: QueryParameters,
  timeZone: string,
): Promise<TableSheetResult> {
  const resultColumns = await queryColumns(store, spec.sql, params, spec.where);
  const columns = resolveColumns(spec, resultColumns);
  const converters = columns.map((c) => rawConverter(resultColumns[c.index]!.typeId, c.format, timeZone));
  const small = spec.large ? undefined : await readSmall(store, spec, columns, converters, params);
  if (small) return writeSheet(writer, spec, timeZone, { columns, converters, stats: small.stats, rows: small.rows });
  // large: both passes over the query under a lower DuckDB memory limit (memory-budget.ts)
  const limit = await lowerMemoryLimit(store);
  try {
    const stats = await underLimit(limit, () => sqlStats(store, spec, columns, resultColumns.length, params));
    return await writeSheet(writer, spec, timeZone, { columns, converters, stats, rows: streamUnderLimit(limit, spec.sql, params, spec.where) });
  } finally {
    await limit.restore();
  }
}

interface SheetRows {
  columns: ResolvedColumn[];
  converters: RawConverter[];
  stats: Stats;
  /** The rows read whole (small results) or as DuckDB's chunks of raw values (large ones). */
  rows: CellValue[][] | AsyncIterable<DuckDBValue[][]>;
}

async function writeSheet(writer: XlsxWriter, spec: TableSheetSpec, timeZone: string, read: SheetRows): Promise<TableSheetResult> {
  const { columns, converters, stats } = read;
  const hasTotals = columns.some((c) => c.total === 'sum');

  const above = headingRows(spec.heading);
  const totalsRow = hasTotals ? above + 1 : 0;
  const headerRow = above + (hasTotals ? 2 : 1);
  const firstDataRow = headerRow + 1;
  const lastDataRow = headerRow + stats.rows;

  // the totals row and the header row head every printed page, as they stay in view on screen
  const ws: SheetWriter = writer.addSheet(spec.name, {
    freeze: { rows: headerRow, columns: spec.freezeColumns },
    printTitleRows: { first: hasTotals ? totalsRow : headerRow, last: headerRow },
  });
  // every cell gets its column's shared style object: exceljs then resolves the style id once per object, not per cell
  const widths = columns.map((c) => fitWidth(c, stats));
  // text wider than its column wraps, in a row tall enough to show it (LibreOffice would cut or overprint it)
  const wraps = columns.map((c, i) => c.format === 'text' && (stats.widest.get(c.index) ?? 0) > widths[i]!);
  const wrapped = wraps.flatMap((w, i) => (w ? [i] : []));
  // beside a wrapped column every cell reads from its row's top, as the wrapped text does (page-width.ts topAligned)
  const styles = columns.map((c, i) => {
    const style = cellStyle(c.format, { signed: c.upIsBad });
    return wraps[i] ? wrapStyle(style) : wrapped.length ? topAligned(style) : style;
  });
  ws.columns = columns.map((c, i) => ({ key: c.field, width: widths[i]! }));
  writeHeading(ws, spec.heading);

  if (hasTotals) {
    const row = ws.getRow(totalsRow);
    columns.forEach((c, i) => {
      const cell = row.getCell(i + 1);
      cell.style = cellStyle(c.format, { signed: c.upIsBad, total: true });
      if (c.total === 'label') cell.value = stats.rows > 0 ? 'Total' : 'Total (no rows)';
      if (c.total !== 'sum') return;
      const exact = stats.totals[c.field];
      // the total in the cells' scale (a duration read in days holds days), exact before that
      const cached = exact === null || exact === undefined ? 0 : Number(toCellValue(exact, c.format, timeZone));
      const col = excelColumn(i + 1);
      cell.value = stats.rows > 0 ? { formula: `SUM(${col}${firstDataRow}:${col}${lastDataRow})`, result: cached } : cached;
    });
    row.commit();
  }
  const header = ws.getRow(headerRow);
  columns.forEach((c, i) => {
    const cell = header.getCell(i + 1);
    cell.value = c.header;
    cell.style = isNumericFormat(c.format) ? STYLE.headerRight : STYLE.header;
  });
  header.height = columns.some((c) => c.header.length > fitWidth(c, stats) - 3) ? 32 : 20;
  header.commit();

  const n = columns.length;
  // text wider than its column wraps: the row is as tall as its tallest wrapped value (15 is a single line)
  const rowHeight = (values: readonly CellValue[]): number | undefined => {
    const texts = wrapped.flatMap((i) => (typeof values[i] === 'string' ? [{ text: values[i] as string, width: widths[i]! }] : []));
    const height = wrappedRowHeight(texts, 15);
    return height > 15 ? height : undefined;
  };
  // a new row's percent change reads "new" (present/new-row.ts), as on the page
  const marks = newRowColumns(columns.map((c) => ({ unit: c.format, upIsBad: c.upIsBad })));
  const markNew = (values: CellValue[]) => {
    if (!marks || !isNewRow(marks, values)) return values;
    for (const i of marks.percent) if (values[i] === null || values[i] === undefined) values[i] = NEW_ROW_TEXT;
    return values;
  };
  const put = (values: CellValue[]) => {
    const row = ws.addRow(markNew(values));
    for (let i = 0; i < n; i++) row.getCell(i + 1).style = styles[i]!;
    const height = wrapped.length ? rowHeight(values) : undefined;
    if (height) row.height = height;
    row.commit();
  };
  let written = 0;
  if (Array.isArray(read.rows)) {
    for (const values of read.rows) put(values);
    written = read.rows.length;
  } else {
    // the rows as sheet XML as they arrive (row-xml.ts): the same cells exceljs would write, at a fraction of the cost
    const rows = writer.rawRows(ws, styles);
    const values: CellValue[] = new Array(n);
    for await (const chunk of read.rows) {
      for (const raw of chunk) {
        for (let i = 0; i < n; i++) values[i] = converters[i]!(raw[columns[i]!.index]!);
        rows.add(markNew(values), wrapped.length ? rowHeight(values) : undefined);
      }
      rows.flush();
      written += chunk.length;
      await writer.drain(ws);
    }
    if (written !== stats.rows) {
      // we hold the write lock, so the data cannot have changed between the two reads: the query is not deterministic
      throw new ReportDefinitionError(`${spec.where}: the query returned ${written} rows after counting ${stats.rows}; does it use random(), now() or a LIMIT without ORDER BY?`);
    }
  }
  if (written === 0) {
    const row = ws.addRow([spec.emptyText]);
    row.getCell(1).style = STYLE.note;
    row.commit();
  }

  ws.autoFilter = `A${headerRow}:${excelColumn(n)}${Math.max(headerRow, lastDataRow)}`;
  if (written > 0) {
    columns.forEach((c, i) => {
      const col = excelColumn(i + 1);
      const data = `${col}${firstDataRow}:${col}${lastDataRow}`;
      if (c.dataBar) writer.addDataBar(ws, data, COLORS.dataBar);
      if (c.upIsBad) addChangeColors(ws, c.total === 'sum' ? `${col}${totalsRow} ${data}` : data, i);
    });
  }
  ws.commit();
  return { name: spec.name, sql: spec.sql, rows: written, headerRow, firstDataRow, lastDataRow, columns, totals: stats.totals };
}

/** It is cost: an increase is red, a decrease green. `slot` keeps rule priorities unique within the sheet. */
export function addChangeColors(ws: SheetWriter, ref: string, slot: number): void {
  ws.addConditionalFormatting({
    ref,
    rules: [
      { type: 'cellIs', operator: 'greaterThan', formulae: ['0'], priority: 2 * slot + 1, style: { font: { color: { argb: COLORS.increase } } } },
      { type: 'cellIs', operator: 'lessThan', formulae: ['0'], priority: 2 * slot + 2, style: { font: { color: { argb: COLORS.decrease } } } },
    ],
  });
}
