// The report module's public API for the rest of the program: render a workbook, email it (the mailer itself is
// src/mail), load a definition, parse --period. Inside, one folder per concern – see "Layout of src/report" in
// docs/report.md.
export { renderReport, workbookFileName, type RenderReportOptions, type RenderedReport, type ReportSummary } from './render.ts';
export { checkDeliveryConfig, deliverReport, ReportDeliveryError, type DeliverReportOptions, type DeliveryResult } from './delivery/index.ts';
export { listReportFiles, loadReportDefinition, ReportDefinitionError } from './definition/index.ts';
export { parsePeriod, PERIOD_USAGE, type ReportPeriod } from './period/index.ts';
