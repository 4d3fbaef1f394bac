// The report module's public API: render a workbook, email it, and the SMTP mailer the alerts channel reuses.
export { renderReport, workbookFileName, type RenderReportOptions, type RenderedReport, type ReportSummary } from './render.ts';
export { deliverReport, type DeliverReportOptions, type DeliveryResult } from './deliver.ts';
export { createMailer, MailError, type Mailer, type MailerOptions, type MailMessage, type MailAttachment, type SentMail } from './mailer.ts';
export { loadReportDefinition, listReportFiles, ReportDefinitionError } from './definitions.ts';
export { parsePeriod, PERIOD_USAGE, type ReportPeriod } from './period.ts';
export { ReportDeliveryError } from './errors.ts';
