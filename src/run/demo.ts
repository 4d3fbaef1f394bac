// The demo behind `npm start` without an API key: the built-in simulator (a small account with its planted spike
// and waste) on a free loopback port, the whole nightly job against it into data/demo.duckdb and out/, and a plain
// statement that the data was simulated and how to use a real account instead.
import { resolve } from 'node:path';
import { DEMO_ACCOUNT, DEMO_DB } from '../config/demo-database.ts';
import { parseConfig } from '../config/load.ts';
import type { Config } from '../config/schema.ts';
import { resolveAccounts } from '../extract/accounts.ts';
import { DEFAULT_KEY, startSimulator } from '../simulator/index.ts';
import type { Logger } from '../util/log.ts';
import { demoAnchor } from './demo-anchor.ts';
import { runNightly, type NightlyResult } from './nightly.ts';

export { DEMO_DB } from '../config/demo-database.ts';

export interface DemoOptions {
  /** demoBaseConfig: the user's config (or the example's) – output folder, time zone, allocation, alert and report settings carry over; accounts do not. */
  config: Config;
  cwd?: string;
  log: Logger;
  dbPath?: string;
  outDir?: string;
  signal?: AbortSignal;
}

/** The demo's config: demoBaseConfig (what reaches beyond this machine removed) pointed at the simulator. */
export function demoConfig(base: Config, apiUrl: string): Config {
  return parseConfig(
    {
      ...JSON.parse(JSON.stringify(base)),
      apiUrl,
      accounts: [{ ...DEMO_ACCOUNT, apiUrl }],
      // the demo's own email never goes anywhere: no SMTP, whatever the user's config says, and simulated alerts
      // stay on this machine (stdout and the NDJSON file), never in the team's webhook; nor does demo data go to
      // the team's PostgreSQL
      smtp: undefined,
      export: {},
      alerts: { ...JSON.parse(JSON.stringify(base.alerts)), channels: [{ type: 'stdout' }, { type: 'file' }] },
    },
    '(demo)',
  );
}

export async function runDemo(options: DemoOptions): Promise<NightlyResult & { apiUrl: string }> {
  const cwd = options.cwd ?? process.cwd();
  const dbPath = resolve(cwd, options.dbPath ?? DEMO_DB);
  // the same simulated account as the demo's earlier runs, seen later: its past stays what was synced before
  const anchor = demoAnchor(dbPath, new Date());
  // the simulator's quotas are raised: a demo should show the job, not wait on a rate limit meant for production
  const sim = await startSimulator({ scale: 'small', anchor, quotas: { minute: 6000, hour: 100_000, day: 1_000_000 } });
  try {
    options.log.info(`demo: no API key configured – running the nightly job against the built-in simulator at ${sim.url} (simulated data)`);
    const config = demoConfig(options.config, sim.url);
    const accounts = resolveAccounts(config, sim.url, { [DEMO_ACCOUNT.apiKeyEnv]: DEFAULT_KEY });
    const result = await runNightly({
      config,
      dbPath,
      accounts,
      log: options.log,
      outDir: resolve(cwd, options.outDir ?? config.outDir),
      email: false,
      signal: options.signal,
      client: { initialRatePerSecond: 50 },
    });
    return { ...result, apiUrl: sim.url };
  } finally {
    await sim.close();
  }
}
