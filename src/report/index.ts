// The report module's public API for the rest of the program: render a report as a workbook or an HTML page,
// deliver it (the mailer itself is src/mail), load a definition, parse --period and set the report clock, read
// within a report session (queryAll, sheetSql), and what serve shares with the page: its tables and shell, and the
// cells' headings and formats. Inside, one folder per concern – see "Layout of src/report" in docs/report.md.
export { renderReport, workbookFileName, type RenderReportOptions, type RenderedReport, type ReportSummary } from './render.ts';
export { checkDeliveryConfig, deliverReport, ReportDeliveryError, type DeliverReportOptions, type DeliveryResult } from './delivery/index.ts';
export { listReportFiles, loadReportDefinition, ReportDefinitionError, type ReportDefinition } from './definition/index.ts';
export { parsePeriod, PERIOD_USAGE, type ReportPeriod } from './period/index.ts';
export { parseReportFormats, renderReportFormats, reportFormats, type RenderedFormats, type RenderedHtml } from './render-formats.ts';
export { reportPage, htmlFileName, HTML_ROW_LIMIT, type PageOptions } from './html/index.ts';
export { readAccounts, withReportSession, type ReportSession } from './report-session.ts';
export { setReportClock, resetReportVariables, type ReportClock } from './period/index.ts';
export { sectionId, tableHtml, tableSection, type HtmlColumn, type HtmlTable } from './html/index.ts';
export { columnHeading, inferFormat, humanize, printedFormat } from './cells/index.ts';
export { queryAll } from './query.ts';
export { sheetSql } from './report-session.ts';
export { groupChartData, groupChartSvg, type GroupDay } from './charts/index.ts';
export { cumulativeChart, type CumulativeData } from './charts/index.ts';
export { renderView, type RenderedView, type RenderViewOptions } from './view/index.ts';
export { categoryRecipients, categoryValues, checkCategoryFlag, deliverCategoryReports, renderCategoryReports, type CategoryDelivery, type CategoryRendering } from './category/index.ts';
