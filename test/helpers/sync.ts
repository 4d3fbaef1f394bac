// Shared pieces of the sync tests: a simulator with a fixed clock and quotas high enough that tests do not wait
// on the real-time rate limiter, a config in a temp dir, and exact comparisons of the store with the ledger.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type BillingSource, type Simulator, type SimulatorOptions } from '../../src/simulator/index.ts';
import type { ConfigInput } from '../../src/config/schema.ts';
import { parseConfig } from '../../src/config/load.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { runSync, type SyncOptions, type SyncResult } from '../../src/extract/sync.ts';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { KEY, NOW } from './simulator-http.ts';

// the simulator's fixed now and demo key, as the simulator tests know them
export { KEY, NOW } from './simulator-http.ts';
export const FAST_QUOTAS = { minute: 100_000, hour: 1_000_000, day: 10_000_000 };

export async function fastSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ now: NOW, quotas: FAST_QUOTAS, ...options });
}

export function writeConfig(dir: string, config: ConfigInput): string {
  const path = join(dir, 'gpuledger.config.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** A small, quick sync configuration: 20 days of days, the last 3 days of hours for pods and Serverless. */
export function smallSyncConfig(sim: Simulator, extra: Partial<ConfigInput> = {}): ConfigInput {
  return {
    apiUrl: sim.url,
    accounts: [{ name: 'sim', apiKeyEnv: 'GPULEDGER_TEST_KEY', simulated: true }],
    sync: {
      start: 'P20D',
      bucketSizes: {
        pods: [{ size: 'day' }, { size: 'hour', lastDays: 3 }],
        serverless: [{ size: 'day' }, { size: 'hour', lastDays: 3 }],
      },
    },
    ...extra,
  };
}

export async function syncOnce(store: Store, config: ConfigInput, overrides: Partial<SyncOptions> = {}, key = KEY): Promise<SyncResult> {
  const parsed = parseConfig(config, 'test');
  return runSync({
    store,
    config: parsed,
    accounts: resolveAccounts(parsed, parsed.apiUrl, { GPULEDGER_TEST_KEY: key }),
    log: silentLogger,
    client: { initialRatePerSecond: 1000 },
    ...overrides,
  });
}

export async function openTestStore(db: string): Promise<Store> {
  return openStore({ path: db, command: 'test' });
}

/** Per (source, bucket size) the stored sum of total_amount and the window it covers. */
export async function storedTotals(store: Store, source: BillingSource, account = 'sim') {
  const def = BILLING_SOURCE_DEFS[source];
  return store.all<{ bucket_size: string; total: string; first_start: string; last_end: string; n: string }>(
    `select bucket_size, sum(total_amount)::varchar total, min(start_time)::varchar first_start, max(end_time)::varchar last_end, count(*)::varchar n
     from ${def.table} where account = $1 group by bucket_size order by bucket_size`,
    [account],
  );
}

/** The stored money of every source and size against the ledger over the same window, micro-dollar for micro-dollar. */
export async function expectMatchesLedger(store: Store, sim: Simulator, sources: readonly BillingSource[], expect: (a: unknown) => { toBe(b: unknown): void }): Promise<number> {
  let compared = 0;
  for (const source of sources) {
    for (const row of await storedTotals(store, source)) {
      const want = sim.ledger.sum({ source, start: new Date(row.first_start), end: new Date(row.last_end) }).totalAmount;
      expect(`${source} ${row.bucket_size}: ${decimalStringToMicros(row.total)}`).toBe(`${source} ${row.bucket_size}: ${want}`);
      compared++;
    }
  }
  return compared;
}
