// The `export` section: where `gpuledger export postgres` (and the nightly job's export step) mirrors the data.
// The password is never in the file: it comes from the environment variable passwordEnv names.
import { z } from 'zod';
import { parsePostgresUrl, SCHEMA_NAME } from './postgres-url.ts';

export const postgresExportSchema = z
  .object({
    url: z
      .string()
      .superRefine((text, ctx) => {
        const parsed = parsePostgresUrl(text);
        if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: `the URL ${parsed}` });
      })
      .describe('postgres://USER@HOST:PORT/DB (optionally ?sslmode=require or verify-full); no password – see passwordEnv.'),
    passwordEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .default('PGPASSWORD')
      .describe('Environment variable holding the PostgreSQL password.'),
    schema: z
      .string()
      .regex(SCHEMA_NAME, 'a lowercase PostgreSQL name: letters, digits and underscores, not starting with a digit, at most 63')
      .default('gpuledger')
      .describe('PostgreSQL schema the tables are written to (created when missing).'),
  })
  .strict();
export type PostgresExportConfig = z.infer<typeof postgresExportSchema>;

export const exportConfigSchema = z
  .object({
    postgres: postgresExportSchema
      .optional()
      .describe('Mirror the cost data into PostgreSQL for BI tools; when set, the nightly job (run) exports after its alerts.'),
  })
  .strict();
export type ExportConfig = z.infer<typeof exportConfigSchema>;
