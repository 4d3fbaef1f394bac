// The report module's public API: render a workbook, email it, and the SMTP mailer the alerts channel reuses.
export { renderReport, workbookFileName, type RenderReportOptions, type RenderedReport, type ReportSummary } from './render.ts';
export { deliverReport, type DeliverReportOptions, type DeliveryResult } from './delivery/deliver.ts';
export { createMailer, MailError, type Mailer, type MailerOptions, type MailMessage, type MailAttachment, type SentMail } from '../mail/mailer.ts';
export { loadReportDefinition, listReportFiles, ReportDefinitionError } from './definition/load.ts';
export { parsePeriod, PERIOD_USAGE, type ReportPeriod } from './period/period.ts';
export { ReportDeliveryError } from './delivery/delivery-error.ts';
