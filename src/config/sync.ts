// The `sync` section: what to extract, at which bucket sizes, from when, and how far back to re-read. The billing
// sources and their default bucket sizes come from their declarations (src/model/billing-sources/).
import { z } from 'zod';
import { BILLING_SOURCE_DEFS, BILLING_SOURCES, type BillingSource } from '../model/index.ts';
import { BUCKET_SIZES } from '../util/buckets.ts';
import { momentProblem } from '../util/dates.ts';

export { BILLING_SOURCES, type BillingSource };
// health: the Serverless queue API's /health samples (src/metrics/), the denominators of cost per job
// balance: one cheap read of the prepaid balance (src/extract/balance.ts), so an hourly `sync --source balance` works
export const SOURCES = [...BILLING_SOURCES, 'inventory', 'health', 'balance'] as const;
export type Source = (typeof SOURCES)[number];

const bucketSizeSchema = z.enum(BUCKET_SIZES).describe('Bucket length: hour, day, week, month or year (UTC boundaries).');

export const bucketPlanSchema = z
  .object({
    size: bucketSizeSchema,
    lastDays: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Only extract this size for the last N days (e.g. hourly detail for the last 14 days). Omit for the whole history.'),
  })
  .strict();
export type BucketPlan = z.infer<typeof bucketPlanSchema>;

const bucketSizesSchema = z
  .object(
    Object.fromEntries(
      BILLING_SOURCES.map((s) => [s, z.array(bucketPlanSchema).default(BILLING_SOURCE_DEFS[s].defaultBucketSizes.map((p) => ({ ...p })))]),
    ) as Record<BillingSource, z.ZodDefault<z.ZodArray<typeof bucketPlanSchema>>>,
  )
  .strict()
  .prefault({})
  .describe('Bucket sizes extracted per billing source.');

export const syncConfigSchema = z
  .object({
    start: z
      .string()
      .regex(/^(\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})|P\d+D)$/, 'an RFC 3339 date-time or a duration like P90D')
      // the shape above is the JSON Schema's pattern; whether the day exists (no 2026-02-30, which Date would roll into
      // March) is the one date parser's, said as every flag says it
      .superRefine((text, ctx) => {
        const problem = /^P\d+D$/.test(text) ? undefined : momentProblem(text, 'sync.start');
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${problem} (or a duration back from now like P90D)` });
      })
      .default('P90D')
      .describe('Where the first sync starts its backfill: an RFC 3339 date-time or a duration back from now (P90D).'),
    lookbackBuckets: z
      .number()
      .int()
      .min(0)
      .default(3)
      .describe('Closed buckets re-read on every sync besides the open one, because the platform restates recent buckets.'),
    maxRecordsPerRequest: z
      .number()
      .int()
      .min(100)
      .default(50_000)
      .describe('Upper bound on the records one billing request may return; the planner splits windows to stay under it.'),
    sources: z
      .array(z.enum(SOURCES))
      .default([...SOURCES])
      .describe('Sources a plain `gpuledger sync` extracts.'),
    bucketSizes: bucketSizesSchema,
    accountConcurrency: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(10)
      .describe(
        'How many accounts one sync reads at the same time. Each has its own key, client and quota, so accounts side by side take about as long as the slowest; loading stays in short writing sessions.',
      ),
    budgetMinutes: z
      .number()
      .positive()
      .max(24 * 60)
      .default(60)
      .describe(
        'The most time one sync spends reading from the platform. Then it stops fetching, loads what it read and ends partial (exit 3); the next sync reads the rest.',
      ),
  })
  .strict();
export type SyncConfig = z.infer<typeof syncConfigSchema>;
