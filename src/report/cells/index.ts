// Cells: the column formats and styles, and DuckDB values turned into cell values (exact DECIMAL until the cell).
// The same values as text: the presentation layer's valueText (src/present/value-text.ts), over the model's unitText.
export { cellStyle, COLORS, COLUMN_FORMATS, isNumericFormat, NUM_FMT, STYLE, type ColumnFormat } from './styles.ts';
export { displayLength, inferFormat, parseTimestamp, printedFormat, toCellValue, type CellValue } from './values.ts';
export { CELL_MAX_CHARS, fitCell, withinCell } from './cell-limit.ts';
export { ExactSum, rawConverter, type RawConverter } from './raw-values.ts';
export { columnHeading, humanize } from './humanize.ts';
