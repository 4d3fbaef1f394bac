// Accounts: each names the env var that holds its API key – the key itself never appears in the config file.
import { z } from 'zod';

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
}
