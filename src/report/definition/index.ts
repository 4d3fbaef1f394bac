// Definition: the zod schema of a report definition (reports/*.yaml or the user's folder) and how one is found,
// read and checked.
export { listReportFiles, loadReportDefinition, ReportDefinitionError, sqlParameters } from './load.ts';
export type { ChartDefinition, ColumnDefinition, ReportDefinition, ReportFormat, SummarySheetDefinition, TableSheetDefinition } from './schema.ts';
export { REPORT_FORMATS } from './schema.ts';
