// Accounts: each names the env var that holds its API key – the key itself never appears in the config file.
import { z } from 'zod';

/** How an account pays: the runway applies to prepaid credit only (docs/runway.md). */
export const BILLING_SETTINGS = ['auto', 'prepaid', 'postpaid'] as const;
export type BillingSetting = (typeof BILLING_SETTINGS)[number];

export const accountSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, dot, dash and underscore')
      .describe('Name stored on every row of this account (e.g. prod, research).'),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .default('RUNPOD_API_KEY')
      .describe('Name of the environment variable holding this account\'s API key.'),
    apiUrl: z.url().optional().describe('API base URL for this account (default: the top-level apiUrl).'),
    simulated: z
      .boolean()
      .optional()
      .describe('Mark this account as simulated data (set by the demo; reports and alerts label it).'),
    billing: z
      .enum(BILLING_SETTINGS)
      .optional()
      .describe(
        'How this account pays. prepaid: a credit balance that runs out – at $0 every running pod stops and pods without a network volume are terminated, so the runway alert warns in time. postpaid: invoiced monthly – the balance reads $0 or below and nothing is suspended, so there is no runway and no runway alert; the month-to-date spend is the figure to watch. auto (the default when absent): post-paid once the balance is at or below $0 while pods keep billing – at two syncs with pods billed on a day after the first of them, or with a top-up history that lists no credit ever (docs/runway.md) – else prepaid. Takes effect at the next sync.',
      ),
    allowSharedKey: z
      .boolean()
      .optional()
      .describe(
        'Read this account even though an account before it uses the same API key (and API URL). Without it, such an account is skipped with a warning: the same key reads the same costs, which would be counted twice.',
      ),
  })
  .strict();
export type AccountConfig = z.infer<typeof accountSchema>;

/** An account as a sync reaches it: its name, API URL and key (read from its apiKeyEnv; never logged). */
export interface ResolvedAccount {
  name: string;
  apiUrl: string;
  apiKey: string;
  apiKeyEnv: string;
  simulated: boolean;
  /** accounts[].billing; absent (an account built outside the config) is 'auto'. */
  billing?: BillingSetting;
  /**
   * Set when the sync does not read this account this run, and why, in one line: `failed` when its key variable is
   * unset (the other accounts still sync; the run ends partial), `skipped` when an account before it has the same key
   * (its costs would be counted twice). apiKey is then empty or another account's and is never used.
   */
  notRead?: { status: 'failed' | 'skipped'; message: string };
}
