// Which database a command reads right after `npm start`: the demo writes data/demo.duckdb (never the real
// database, so simulated rows never mix with an account's), and a new user's next step – `gpuledger query`, `report`,
// `serve` – would otherwise find no database at all. Until a real one exists, and unless --db or GPULEDGER_DB names
// one, commands use the demo database and say so (issue 25 §6).
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigFile, parseConfig } from './load.ts';
import type { Config } from './schema.ts';

/** Where `npm start` without a key (`run --demo`) keeps its database, relative to the current folder. */
export const DEMO_DB = 'data/demo.duckdb';

export interface DemoInstead {
  dbPath: string;
  /** One line for stderr: which file is read instead of which, and how to get a real one. */
  note: string;
}

/**
 * The demo database when `dbPath` does not exist (nor its writer copy, which a first sync killed before publishing
 * leaves) and was not named explicitly, but the demo's does; otherwise undefined.
 */
export function demoInstead(dbPath: string, explicit: boolean, cwd: string = process.cwd()): DemoInstead | undefined {
  if (explicit || existsSync(dbPath) || existsSync(`${dbPath}.writer`)) return undefined;
  const demo = resolve(cwd, DEMO_DB);
  if (demo === dbPath || !existsSync(demo)) return undefined;
  const shown = (path: string) => (relative(cwd, path).startsWith('..') ? path : relative(cwd, path));
  return {
    dbPath: demo,
    note: `using the demo database ${shown(demo)} (simulated data): ${shown(dbPath)} does not exist yet – \`gpuledger sync\` with an API key creates it`,
  };
}

/** The full example the README points at; shipped in the package (package.json "files"). */
export const EXAMPLE_CONFIG = fileURLToPath(new URL('../../config/gpuledger.example.json', import.meta.url));

/** The account the demo's rows carry; its key variable is set by the demo itself, never by a user. */
export const DEMO_ACCOUNT = { name: 'demo', apiKeyEnv: 'GPULEDGER_DEMO_KEY', simulated: true } as const;

/**
 * The config the demo runs with, and the one commands reading the demo database answer with: the user's own when
 * there is a config file, else the example's allocation categories, budgets and alert thresholds – so the demo's
 * report, `serve` and `allocation explain` show them – with nothing that reaches beyond this machine: one simulated
 * account, no SMTP, no email recipients, no PostgreSQL export, alerts on stdout and in the NDJSON file.
 */
export function demoBaseConfig(config: Config, configPath: string | undefined): Config {
  const base = configPath === undefined ? loadConfigFile(EXAMPLE_CONFIG) : config;
  const raw = JSON.parse(JSON.stringify(base)) as Record<string, unknown> & { reports: Record<string, unknown>; alerts: Record<string, unknown> };
  return parseConfig(
    {
      ...raw,
      // the example's database is the real one's default; the demo's is DEMO_DB, chosen by the caller
      database: configPath === undefined ? undefined : raw.database,
      accounts: [DEMO_ACCOUNT],
      smtp: undefined,
      export: {},
      reports: { ...raw.reports, delivery: {} },
      alerts: { ...raw.alerts, channels: [{ type: 'stdout' }, { type: 'file' }] },
    },
    configPath === undefined ? `(demo, from ${EXAMPLE_CONFIG})` : `(demo, from ${configPath})`,
  );
}
