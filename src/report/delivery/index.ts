// Delivery: a rendered workbook emailed (body, attachment or zip or a path, retries) and recorded in
// _meta_report_deliveries; the mailer itself is src/mail.
export { checkDeliveryConfig, deliverReport, type DeliverReportOptions, type DeliveryResult } from './deliver.ts';
export { ReportDeliveryError } from './delivery-error.ts';
