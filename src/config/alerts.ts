// The `alerts` section: which rules run, with what thresholds, and where their alerts go (evaluated by src/alert/).
// Amounts are decimal strings or numbers of USD with at most 2 decimals; they are compared as DECIMAL in DuckDB.
import { z } from 'zod';
import { FAMILIES } from '../model/index.ts';
import { channelSchema, outboxSchema } from './alert-channels.ts';

const money = z
  .union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d{1,2})?$/, 'a decimal amount such as 2500 or 2500.00')])
  .transform((v) => (typeof v === 'number' ? v.toFixed(2) : v));

export const ANOMALY_DIMENSIONS = ['family', 'template', 'endpoint', 'gpu_type'] as const;
export type AnomalyDimension = (typeof ANOMALY_DIMENSIONS)[number];
// where alerts go is its own file (alert-channels.ts); its names are this section's too
export * from './alert-channels.ts';

export const budgetRuleSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, ".", "_" or "-"')
      .describe('A short name for the budget; alerts are keyed by it.'),
    period: z.enum(['month', 'week']).default('month').describe('The budget period: calendar month, or ISO week (Monday to Sunday), in UTC.'),
    amount: money.describe('The budget for one period, in USD.'),
    account: z.string().min(1).optional().describe('Only this account; default: all accounts together.'),
    scope: z
      .object({
        family: z.enum(FAMILIES).optional(),
        template: z.string().min(1).optional().describe('Template name or id.'),
        endpoint: z.string().min(1).optional().describe('Serverless endpoint name or id.'),
        gpuType: z.string().min(1).optional().describe('GPU type id or name, e.g. "NVIDIA A100 80GB PCIe".'),
        category: z.string().min(1).optional().describe('An allocation category (allocation.categories), with `value`.'),
        value: z.string().min(1).optional().describe('The allocation value of `category` whose cost the budget covers, e.g. "imaging".'),
      })
      .strict()
      .refine((s) => (s.category === undefined) === (s.value === undefined), 'category and value go together: {"category": "team", "value": "imaging"}')
      .refine(
        (s) => s.category === undefined || (s.family ?? s.template ?? s.endpoint ?? s.gpuType) === undefined,
        'a category scope stands alone: allocation already decides which family, template, endpoint or GPU type belongs to the value',
      )
      .default({})
      .describe('Restrict the budget to spend on a family, template, endpoint or GPU type (all given must match), or to one allocation value.'),
    thresholds: z
      .array(z.number().positive().max(1000))
      .min(1)
      .default([50, 80, 100])
      .transform((t) => [...new Set(t)].sort((a, b) => a - b))
      .describe('Alert when spend reaches these percentages of the budget.'),
    on: z
      .array(z.enum(['actual', 'forecast']))
      .min(1)
      .default(['actual', 'forecast'])
      .describe('Compare the thresholds with the spend so far (actual), the forecast of the period end, or both.'),
  })
  .strict();
export type BudgetRule = z.infer<typeof budgetRuleSchema>;

export const anomalyRuleSchema = z
  .object({
    enabled: z.boolean().default(true),
    dimensions: z
      .array(z.enum(ANOMALY_DIMENSIONS))
      .min(1)
      .default([...ANOMALY_DIMENSIONS])
      .describe('Which series to watch: spend per family, template, endpoint and/or GPU type.'),
    baselineDays: z
      .number()
      .int()
      .min(7)
      .max(120)
      .default(28)
      .describe('Days before each day that form its baseline (rolling median and MAD).'),
    weekdayAware: z
      .boolean()
      .default(true)
      .describe('Compare weekdays with weekdays and weekend days with weekend days, so a quiet weekend is not "normal" for a Monday.'),
    windowDays: z
      .number()
      .int()
      .min(1)
      .max(60)
      .default(14)
      .describe('How many recent complete days are checked; an anomaly stays open while one of them is anomalous.'),
    threshold: z
      .number()
      .positive()
      .default(5)
      .describe('How many robust standard deviations (1.4826 × MAD) above the median a day must be.'),
    minCost: money.default('40.00').describe('A day must also exceed what was expected by at least this many USD: what a team is paged for (a GPU pod of a few dollars an hour for a day), so one more small pod pages nobody.'),
    historyDays: z
      .number()
      .int()
      .min(28)
      .max(365)
      .default(90)
      .describe(
        "How far back a series' habits are read: its episodes (runs of consecutive days with spend – a training job's days) before the one a day belongs to.",
      ),
    recurringEpisodes: z
      .number()
      .int()
      .min(1)
      .max(30)
      .default(2)
      .describe(
        'A usually idle series with at least this many earlier episodes in historyDays is recurring: one more job is judged against its past jobs, not paged as new spend.',
      ),
    episodeRatio: z
      .number()
      .min(1.5)
      .max(100)
      .default(3)
      .describe(
        "A recurring series pages when a day reaches this multiple of its typical active day, or its episode so far this multiple of a typical past episode (it also pages when an episode runs past its longest and 2 days past its typical length).",
      ),
    minSharePct: z
      .number()
      .min(0)
      .max(100)
      .default(2)
      .describe("A day must exceed what was expected by at least this % of the account's typical daily spend (the median day of baselineDays) as well as minCost: a $40 wobble on a $5,000/day account is no page."),
    criticalSharePct: z
      .number()
      .positive()
      .max(1000)
      .default(10)
      .describe(
        "Critical only when the excess is at least this % of the account's typical daily spend and the score at least twice threshold; otherwise a warning.",
      ),
  })
  .strict();
export type AnomalyRule = z.infer<typeof anomalyRuleSchema>;

export const unitCostRuleSchema = z
  .object({
    enabled: z.boolean().default(true),
    ratio: z
      .number()
      .min(1.05)
      .max(100)
      .default(1.5)
      .describe('Alert when a day\'s cost per unit (rpt_unit_cost) is at least this multiple of its median over the baseline.'),
    baselineDays: z.number().int().min(7).max(90).default(28).describe('Days before the latest one that make the median.'),
    minCost: money.default('10.00').describe('The day must also cost at least this many USD in the scope, so cents never page anyone.'),
  })
  .strict();
export type UnitCostRule = z.infer<typeof unitCostRuleSchema>;

export const wasteRuleSchema = z
  .object({
    enabled: z.boolean().default(true),
    minMonthlyCost: money.default('10.00').describe('Alert on rpt_waste findings that cost at least this much a month.'),
  })
  .strict();

export const dataQualityRuleSchema = z
  .object({
    enabled: z.boolean().default(true),
    reconciliationTolerance: money
      .default('0.01')
      .describe('Largest difference (USD) per bucket between the aggregate route and the family route that is not an alert.'),
    reconciliationDays: z.number().int().min(1).max(90).default(7).describe('How many recent days of rpt_reconciliation are checked.'),
    staleAfterHours: z
      .number()
      .positive()
      .max(24 * 30)
      .default(36)
      .describe('A source is stale when its last successful sync, or its data, is older than this.'),
    syncFailures: z.boolean().default(true).describe('Alert when the latest sync or run failed or finished partially.'),
  })
  .strict();

export const runwayRuleSchema = z
  .object({
    enabled: z.boolean().default(true),
    warningHours: z
      .number()
      .positive()
      .default(72)
      .describe('Warn when the prepaid balance lasts fewer hours than this at the current spend (rpt_runway.runway_hours).'),
    criticalHours: z
      .number()
      .positive()
      .default(24)
      .describe('Critical when the balance lasts fewer hours than this. At $0 pods stop and pods without a network volume lose their data.'),
    spendLimitPct: z
      .number()
      .positive()
      .max(100)
      .default(80)
      .describe('Warn when current spend reaches this % of the hourly spend limit: the platform refuses new resources at the limit.'),
    listResources: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(10)
      .describe('How many at-risk resources (pods without a network volume first, then network volumes) a runway alert names.'),
  })
  .strict()
  .refine((r) => r.criticalHours <= r.warningHours, 'criticalHours must not exceed warningHours');
export type RunwayRule = z.infer<typeof runwayRuleSchema>;


export const alertsConfigSchema = z
  .object({
    budgets: z.array(budgetRuleSchema).default([]).refine((b) => new Set(b.map((x) => x.name)).size === b.length, 'budget names must be unique'),
    anomaly: anomalyRuleSchema.prefault({}),
    waste: wasteRuleSchema.prefault({}),
    unitCost: unitCostRuleSchema.prefault({}).describe('Cost per unit jumps (rpt_unit_cost): says whether the cost rose or the volume fell.'),
    dataQuality: dataQualityRuleSchema.prefault({}),
    runway: runwayRuleSchema.prefault({}).describe('Prepaid balance: runway, spend-limit headroom and the one-hour deploy floor (docs/runway.md).'),
    channels: z
      .array(channelSchema)
      .default([{ type: 'stdout', minSeverity: 'info' }, { type: 'file', minSeverity: 'info' }])
      .describe('Where alert events go; default stdout and <outDir>/alerts.ndjson.'),
    outbox: outboxSchema.prefault({}),
  })
  .strict()
  .describe('Alert rules and channels.');
export type AlertsConfig = z.infer<typeof alertsConfigSchema>;
