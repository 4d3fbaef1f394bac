// The `reports` section: delivery settings per report (the definitions themselves live in reports/).
import { z } from 'zod';

export const reportDeliverySchema = z
  .object({
    recipients: z.array(z.string().min(3)).default([]).describe('Who receives this report by email.'),
  })
  .strict();

export const reportsConfigSchema = z
  .object({
    directory: z.string().default('reports').describe('Folder holding report definitions (one file per report).'),
    delivery: z.record(z.string(), reportDeliverySchema).default({}).describe('Email delivery per report name.'),
    budget: z
      .object({
        monthly: z.string().regex(/^\d+(\.\d{1,2})?$/, 'a decimal amount such as 25000 or 25000.00').describe('Monthly budget in USD.'),
      })
      .strict()
      .optional()
      .describe('An account-wide monthly budget shown on the summary sheet.'),
  })
  .strict();
export type ReportsConfig = z.infer<typeof reportsConfigSchema>;
