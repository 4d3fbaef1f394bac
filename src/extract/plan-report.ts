// `sync --plan`: the requests a sync would make and what they cost at the current quota, without calling a billing
// route. The platform's time and quota come from one cheap inventory call; densities from the store's previous
// loads, else from the inventory the key can see. An account without a key is planned without asking the API at
// all: this machine's clock, the store's densities or one record per bucket, and no quota (issue 25 §6).
import { ApiClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import { BILLING_SOURCES, type BillingSource, type Source } from '../config/sync.ts';
import type { Store } from '../store/database.ts';
import { countBuckets, formatRfc3339, type BucketSize } from '../util/buckets.ts';
import type { PlanAccount } from './accounts.ts';
import { INVENTORY_KINDS } from './inventory.ts';
import { EMPTY_SYNC_STATE, readSyncState } from './sync-state.ts';
import { chunkRange, planRange } from './window-plan.ts';
import { BILLING_SOURCE_DEFS } from '../model/index.ts';

export interface PlanRow {
  account: string;
  source: BillingSource;
  bucketSize: BucketSize;
  reason: string;
  start: string;
  end: string;
  buckets: number;
  expectedRecords: number;
  requests: number;
}

export interface SyncPlan {
  rows: PlanRow[];
  requests: number;
  /** Minutes the billing requests take at the tightest quota window (undefined when the API sent no policy). */
  minutes: number | undefined;
  quota: string | undefined;
  /** One line per account the sync would not read (a key another account already reads). */
  notRead: string[];
  /** Accounts planned without a key: their densities are guesses and their quota unknown. */
  withoutKey: string[];
}

export interface PlanOptions {
  /** Absent when no database exists yet: everything is a first backfill. */
  store: Store | undefined;
  config: Config;
  accounts: readonly PlanAccount[];
  sources?: readonly Source[];
  bucketSize?: BucketSize;
  since?: Date;
  until?: Date;
}

export async function planSync(options: PlanOptions): Promise<SyncPlan> {
  const sources = options.sources ?? options.config.sync.sources;
  const max = options.config.sync.maxRecordsPerRequest;
  const state = options.store ? await readSyncState(options.store) : EMPTY_SYNC_STATE;
  const rows: PlanRow[] = [];
  let quotaText: string | undefined;
  let perMinute: number | undefined;
  const notRead: string[] = [];
  const withoutKey: string[] = [];
  for (const account of options.accounts) {
    if (account.notRead) {
      notRead.push(account.notRead.message);
      continue;
    }
    const apiKey = account.apiKey;
    if (apiKey === undefined) withoutKey.push(account.name);
    const client = apiKey === undefined ? undefined : new ApiClient({ baseUrl: account.apiUrl, apiKey, apiKeyEnv: account.apiKeyEnv });
    try {
      await client?.probe();
      const now = client?.serverTime() ?? new Date();
      const quota = client?.quota();
      if (quota && quota.windows.length > 0) {
        // the sustainable rate is the tightest window's quota over its length
        const rate = Math.min(...quota.windows.map((w) => (w.quota / w.windowSeconds) * 60));
        perMinute = perMinute === undefined ? rate : Math.min(perMinute, rate);
        quotaText = quota.windows.map((w) => `${w.quota}/${w.name}`).join(', ');
      }
      const inventoryCounts = new Map<string, number>();
      for (const source of BILLING_SOURCES) {
        if (!sources.includes(source)) continue;
        const plans = options.bucketSize ? [{ size: options.bucketSize }] : options.config.sync.bucketSizes[source];
        for (const plan of plans) {
          const range = planRange({
            source,
            plan,
            now,
            config: options.config.sync,
            watermark: state.watermark(account.name, source, plan.size),
            since: options.since,
            until: options.until,
          });
          if (!range) continue;
          let density = state.lastDensity(account.name, source, plan.size);
          const kind = BILLING_SOURCE_DEFS[source].inventoryKind;
          if (density === undefined) {
            if (!kind || !client) density = 1;
            else {
              if (!inventoryCounts.has(kind)) {
                const list = INVENTORY_KINDS.find((k) => k.kind === kind)!.list;
                inventoryCounts.set(kind, (await client.inventory(list)).length);
              }
              density = Math.max(1, inventoryCounts.get(kind)!);
            }
          }
          const chunks = chunkRange(range, density, max);
          rows.push({
            account: account.name,
            source,
            bucketSize: plan.size,
            reason: range.reason,
            start: formatRfc3339(range.start),
            end: formatRfc3339(range.end),
            buckets: countBuckets(range.start, range.end, plan.size),
            expectedRecords: Math.round(chunks.reduce((s, c) => s + c.expectedRecords, 0)),
            requests: chunks.length,
          });
        }
      }
    } finally {
      await client?.close();
    }
  }
  const requests = rows.reduce((s, r) => s + r.requests, 0);
  return { rows, requests, minutes: perMinute ? requests / perMinute : undefined, quota: quotaText, notRead, withoutKey };
}
