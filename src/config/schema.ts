// The config file's schema: one section per module, each with a description that the generated JSON Schema
// (config/gpuledger.schema.json) shows in editors.
import { z } from 'zod';
import { accountSchema } from './accounts.ts';
import { alertsConfigSchema } from './alerts.ts';
import { exportConfigSchema } from './export.ts';
import { guardrailsConfigSchema } from './guardrails.ts';
import { allocationConfigSchema } from './allocation.ts';
import { reportsConfigSchema } from './reports.ts';
import { scheduleConfigSchema } from './schedule.ts';
import { smtpConfigSchema } from './smtp.ts';
import { syncConfigSchema } from './sync.ts';
import { viewCategoryProblem, viewsConfigSchema } from './views.ts';

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const configSchema = z
  .object({
    $schema: z.string().optional().describe('Path of the JSON Schema, for editors.'),
    apiUrl: z.url().default('https://api.runpod.io').describe('Platform API base URL (env GPULEDGER_API_URL, flag --api-url).'),
    queueApiUrl: z
      .url()
      .optional()
      .describe(
        'Serverless queue API base URL for /v2/{endpoint}/health (env GPULEDGER_QUEUE_API_URL, flag --queue-api-url). Default: https://api.runpod.ai for the platform, the API URL itself for any other apiUrl (the simulator serves both).',
      ),
    database: z.string().min(1).default('data/gpuledger.duckdb').describe('DuckDB file (env GPULEDGER_DB, flag --db).'),
    outDir: z.string().min(1).default('out').describe('Where workbooks and alert files are written.'),
    timeZone: z
      .string()
      .refine(isTimeZone, 'an IANA time zone such as Europe/Berlin or UTC')
      .default('UTC')
      .describe('Time zone for schedules and for dates people read; data stays in UTC.'),
    accounts: z
      .array(accountSchema)
      .min(1)
      .default([{ name: 'default', apiKeyEnv: 'RUNPOD_API_KEY' }])
      .refine((a) => new Set(a.map((x) => x.name)).size === a.length, 'account names must be unique')
      .describe('Platform accounts to extract; each names the env var that holds its key.'),
    sync: syncConfigSchema.prefault({}),
    reports: reportsConfigSchema.prefault({}),
    smtp: smtpConfigSchema.optional().describe('SMTP settings for report and alert email.'),
    alerts: alertsConfigSchema.prefault({}),
    schedule: scheduleConfigSchema.prefault({}),
    allocation: allocationConfigSchema.prefault({}),
    export: exportConfigSchema.prefault({}),
    views: viewsConfigSchema,
    guardrails: guardrailsConfigSchema,
  })
  .strict()
  .superRefine((config, ctx) => {
    // a budget on an allocation value that no category gives would silently watch $0
    for (const [i, budget] of config.alerts.budgets.entries()) {
      const { category, value } = budget.scope;
      if (category === undefined) continue;
      const def = config.allocation.categories[category];
      const values = def ? new Set([def.default, ...def.rules.map((r) => r.value)]) : undefined;
      if (!values || !values.has(value!)) {
        ctx.addIssue({
          code: 'custom',
          path: ['alerts', 'budgets', i, 'scope'],
          message: !def
            ? `category '${category}' is not in allocation.categories (${Object.keys(config.allocation.categories).join(', ') || 'none configured'})`
            : `category '${category}' gives no value '${value}' (its values: ${[...values!].join(', ')})`,
        });
      }
    }
    // a guardrail on a budget the config does not have would never fire
    const budgetNames = new Set(config.alerts.budgets.map((b) => b.name));
    const accountNames = new Set(config.accounts.map((a) => a.name));
    for (const [i, rule] of config.guardrails.entries()) {
      if (rule.trigger.kind === 'budget' && !budgetNames.has(rule.trigger.budget)) {
        ctx.addIssue({ code: 'custom', path: ['guardrails', i, 'trigger', 'budget'], message: `budget '${rule.trigger.budget}' is not in alerts.budgets (${[...budgetNames].join(', ') || 'none configured'})` });
      }
      if (rule.account !== undefined && !accountNames.has(rule.account)) {
        ctx.addIssue({ code: 'custom', path: ['guardrails', i, 'account'], message: `account '${rule.account}' is not in accounts (${[...accountNames].join(', ')})` });
      }
    }
    // a saved view's category or category value that no rule gives would answer $0 for ever (views.ts)
    for (const [i, view] of config.views.entries()) {
      const problem = viewCategoryProblem(view, config.allocation);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['views', i], message: problem });
    }
  });

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
