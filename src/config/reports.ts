// The `reports` section: where report definitions live, delivery settings per report, the budget shown on the
// summary, email size limits and delivery retries (the definitions themselves live in reports/).
import { z } from 'zod';

export const reportDeliverySchema = z
  .object({
    recipients: z.array(z.string().min(3)).default([]).describe('Who receives this report by email.'),
    recipientsByValue: z
      .record(z.string().min(1), z.array(z.string().min(3)))
      .optional()
      .describe('A report rendered per value of an allocation category (showback): who receives each value\'s own files, by value; `recipients` then receive the summary. A value without recipients is written, not emailed.'),
    subject: z
      .string()
      .min(1)
      .optional()
      .describe('Email subject; default "<report title> – <period>" (prefixed "[SIMULATED DATA]" for simulated accounts).'),
  })
  .strict();

export const reportEmailSchema = z
  .object({
    // refused rather than ignored, so a config that relied on it learns why its attachments changed
    zipAboveMb: z
      .never({ error: 'is no longer supported: an .xlsx is already a zip, so the workbook is attached as it is (up to attachUpToMb); remove the key' })
      .optional()
      .describe('Removed: an .xlsx is already a zip. Setting it is refused.'),
    attachUpToMb: z
      .number()
      .positive()
      .default(18)
      .describe('A workbook larger than this (MB) is not attached; the email states the workbook\'s path instead.'),
    attempts: z.number().int().min(1).max(10).default(3).describe('Send attempts per delivery (transient SMTP errors are retried).'),
    retryDelaySeconds: z
      .number()
      .min(0)
      .max(3600)
      .default(30)
      .describe('Wait before the second attempt; doubles for each later attempt.'),
    maxRetryDelaySeconds: z.number().min(0).max(3600).default(300).describe('Upper bound of the wait between attempts.'),
  })
  .strict();
export type ReportEmailConfig = z.infer<typeof reportEmailSchema>;

export const reportsConfigSchema = z
  .object({
    directory: z
      .string()
      .default('reports')
      .describe('Folder holding your own report definitions (one .yaml/.yml/.json file per report); they override the shipped ones of the same name.'),
    delivery: z.record(z.string(), reportDeliverySchema).default({}).describe('Email delivery per report name.'),
    budget: z
      .object({
        monthly: z.string().regex(/^\d+(\.\d{1,2})?$/, 'a decimal amount such as 25000 or 25000.00').describe('Monthly budget in USD.'),
      })
      .strict()
      .optional()
      .describe('An account-wide monthly budget shown on the summary sheet.'),
    email: reportEmailSchema.prefault({}).describe('Attachment size limits and delivery retries for report email.'),
    formats: z
      .array(z.enum(['xlsx', 'html']))
      .min(1)
      .optional()
      .describe('What a report is written as when neither --format nor its definition says: xlsx, html or both (default xlsx).'),
    attachHtml: z
      .boolean()
      .default(false)
      .describe('Attach the HTML report to the report email too, when one was written beside the workbook (default: the email names its path).'),
    chartFont: z
      .string()
      .min(1)
      .optional()
      .describe('A .ttf/.otf font file for chart text; default: DejaVu Sans, Liberation Sans or another system sans-serif font.'),
  })
  .strict();
export type ReportsConfig = z.infer<typeof reportsConfigSchema>;
