// Workbook: the streaming xlsx writer and the sheets written with it – summary, table and metadata – each under the
// same heading (title, period, SIMULATED DATA banner).
export { createXlsxWriter } from './xlsx-writer.ts';
export { simulatedBanner, writeHeading, type Heading } from './sheet-heading.ts';
export { writeMetadataSheet, type MetadataInput } from './metadata-sheet.ts';
export { writeSummarySheet, type SummaryFigure } from './summary-sheet.ts';
export { writeTableSheet } from './table-sheet.ts';
export { SIMULATED_LABEL } from './sheet-heading.ts';
export { sqlStats } from './table-stats.ts';
