// The network half of a sync for one account: its inventory and every planned billing range, read without the
// database held. Each billing page is spooled and handed to `onPage` (load-account.ts queues its load) as it
// arrives; the inventory and what failed are handed to load-account.ts at the end.
import { ApiAuthError, ApiForbiddenError, type ApiClient } from '../api/index.ts';
import type { HostBreakers } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import { BILLING_SOURCES, type BillingSource, type BucketPlan, type Source } from '../config/sync.ts';
import { errorMessage } from '../util/errors.ts';
import type { BucketSize } from '../util/buckets.ts';
import type { Logger } from '../util/log.ts';
import { sampleQueueHealth, type QueueHealthHarvest } from '../metrics/sample-queue-health.ts';
import type { ResolvedAccount } from './accounts.ts';
import { fetchBalance, type BalanceHarvest } from './balance.ts';
import { BILLING_SOURCE_DEFS } from '../model/index.ts';
import { fetchRange, type FetchedPage, type FetchedRange } from './fetch-range.ts';
import { fetchInventory } from './inventory.ts';
import type { Progress } from './progress.ts';
import type { RangeSummary } from './range-summary.ts';
import type { Spool } from './spool.ts';
import type { SyncState } from './sync-state.ts';
import { planRange, type PlannedRange } from './window-plan.ts';

export type InventoryRead = Awaited<ReturnType<typeof fetchInventory>>;

export interface HarvestedRange {
  summary: RangeSummary;
  range?: PlannedRange;
  fetched?: FetchedRange;
  /** Set by the load when one of its pages failed: the rest of the range is neither read nor loaded. */
  loadFailed?: boolean;
}

export interface AccountHarvest {
  account: ResolvedAccount;
  inventory?: { read: InventoryRead; readAt: Date; summary: RangeSummary };
  balance?: BalanceHarvest;
  ranges: HarvestedRange[];
  errors: Array<{ account: string; source: string; message: string }>;
  warnings: string[];
  /** 403s: a key that may not read a source (a configuration problem when nothing else could be read). */
  forbidden: unknown[];
  /** Serverless queue /health samples (source `health`, src/metrics/). */
  health?: QueueHealthHarvest;
}

export interface FetchAccountOptions {
  client: ApiClient;
  account: ResolvedAccount;
  config: Config;
  state: SyncState;
  sources: readonly Source[];
  bucketSize?: BucketSize;
  since?: Date;
  until?: Date;
  log: Logger;
  signal?: AbortSignal;
  /** The run's breakers for the queue API's hosts (health samples). */
  queueBreakers?: HostBreakers;
  progress?: Progress;
  spool: Spool;
  /** Queue one spooled page's load; false when its range already failed to load. */
  onPage(harvest: AccountHarvest, entry: HarvestedRange, page: FetchedPage): Promise<boolean>;
}

function plansFor(config: Config, source: BillingSource, override: BucketSize | undefined): readonly BucketPlan[] {
  return override ? [{ size: override }] : config.sync.bucketSizes[source];
}

function newSummary(account: string, source: Source, bucketSize: BucketSize | ''): RangeSummary {
  return { account, source, bucketSize, requests: 0, records: 0, amountMicros: 0n, restated: 0, status: 'ok' };
}

/**
 * Records per bucket expected before the first answer, and whether it is known or guessed. Known: what the newest
 * load of this source held per bucket. Guessed: the inventory's object count – the range is read newest-first, and
 * the newest buckets bill about the resources that exist now (fetch-range.ts adds room for those that ended) – else a
 * tenth of the bound.
 */
function initialDensity(options: FetchAccountOptions, source: BillingSource, size: BucketSize, inventoryCount: number | undefined) {
  const def = BILLING_SOURCE_DEFS[source];
  if (!def.inventoryKind) return { perBucket: 1, known: true };
  const last = options.state.lastDensity(options.account.name, source, size);
  if (last !== undefined) return { perBucket: last, known: true };
  const n = inventoryCount ?? 0;
  return { perBucket: n > 0 ? n : options.config.sync.maxRecordsPerRequest / 10, known: false };
}

export async function fetchAccount(options: FetchAccountOptions): Promise<AccountHarvest> {
  const { client, account, config, log } = options;
  const harvest: AccountHarvest = { account, ranges: [], errors: [], warnings: [], forbidden: [] };
  const counts = new Map<string, number>();
  if (options.sources.includes('inventory')) {
    const summary = newSummary(account.name, 'inventory', '');
    const before = client.stats.requests;
    const read = await fetchInventory(client, log.child(account.name));
    for (const d of read.docs) counts.set(d.kind, (counts.get(d.kind) ?? 0) + 1);
    summary.records = read.docs.length;
    summary.requests = client.stats.requests - before;
    harvest.inventory = { read, readAt: client.serverTime() ?? new Date(), summary };
    if (read.failed.length > 0) {
      const first = read.failed[0]!;
      if (first.error instanceof ApiAuthError || first.error instanceof ApiForbiddenError) throw first.error;
    }
  }
  if (options.sources.includes('balance')) await fetchBalance(client, harvest, log);
  for (const source of BILLING_SOURCES) {
    if (!options.sources.includes(source)) continue;
    for (const plan of plansFor(config, source, options.bucketSize)) {
      const entry: HarvestedRange = { summary: newSummary(account.name, source, plan.size) };
      harvest.ranges.push(entry);
      if (options.signal?.aborted) {
        entry.summary.status = 'stopped';
        continue;
      }
      const range = planRange({
        source,
        plan,
        now: client.serverTime() ?? new Date(),
        config: config.sync,
        watermark: options.state.watermark(account.name, source, plan.size),
        since: options.since,
        until: options.until,
      });
      if (!range) {
        entry.summary.status = 'skipped';
        continue;
      }
      entry.range = range;
      entry.summary.start = range.start.toISOString();
      entry.summary.end = range.end.toISOString();
      const kind = BILLING_SOURCE_DEFS[source].inventoryKind;
      entry.fetched = await fetchRange({
        client,
        account: account.name,
        range,
        maxRecords: config.sync.maxRecordsPerRequest,
        density: initialDensity(options, source, plan.size, kind ? counts.get(kind) : undefined),
        signal: options.signal,
        progress: options.progress,
        spool: options.spool,
        onPage: (page) => options.onPage(harvest, entry, page),
      });
      entry.summary.requests = entry.fetched.requests;
      const error = entry.fetched.error;
      if (error instanceof ApiAuthError) throw error; // the key is rejected: nothing else of this account can work
      // a request abandoned because the sync was stopped (a signal, or its budget) leaves the range stopped, not failed
      if (error !== undefined && !options.signal?.aborted) {
        entry.summary.status = 'failed';
        entry.summary.error = errorMessage(error);
        harvest.errors.push({ account: account.name, source: `${source} ${plan.size}`, message: entry.summary.error });
        if (error instanceof ApiForbiddenError) harvest.forbidden.push(error);
        log.error(`${account.name} ${source} ${plan.size}: ${entry.summary.error}`);
      } else if (!entry.fetched.complete && !entry.loadFailed) {
        entry.summary.status = 'stopped';
      }
    }
  }
  harvest.health = await sampleQueueHealth({ ...options, client, account, config, log }, harvest);
  return harvest;
}
