// Cells: the column formats and styles, DuckDB values turned into cell values (exact DECIMAL until the cell), and
// the same values as text for summaries and emails.
export { cellStyle, COLORS, COLUMN_FORMATS, isNumericFormat, NUM_FMT, STYLE, type ColumnFormat } from './styles.ts';
export { displayLength, inferFormat, parseTimestamp, printedFormat, toCellValue, type CellValue } from './values.ts';
export { CELL_MAX_CHARS, fitCell, withinCell } from './cell-limit.ts';
export { ExactSum, rawConverter, type RawConverter } from './raw-values.ts';
export { formatText, instantText } from './text-format.ts';
export { columnHeading, humanize } from './humanize.ts';
