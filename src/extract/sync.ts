// The sync engine: for every account, the inventory first (it names things and sizes the plan), then every billing
// source at each configured bucket size, chunk by chunk, each chunk committed on its own. A failing source is
// recorded and the others go on; a rejected key stops its account. The run log says what happened.
import { ApiAuthError, ApiClient, ApiForbiddenError, type ApiClientOptions } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import { BILLING_SOURCES, type BillingSource, type BucketPlan, type Source } from '../config/sync.ts';
import type { Store } from '../store/database.ts';
import { addBuckets, countBuckets, type BucketSize } from '../util/buckets.ts';
import { errorMessage } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import type { ResolvedAccount } from './accounts.ts';
import { fetchInventory, loadInventory } from './inventory.ts';
import { loadBillingPage } from './load-billing.ts';
import { nextChunk, planRange, type PlannedRange, type Watermark } from './plan.ts';
import type { Progress } from './progress.ts';
import { closeInterruptedRuns, finishRun, startRun, type RunStatus } from './runs.ts';
import { BILLING_SOURCE_DEFS } from './billing-sources/index.ts';

export interface SyncOptions {
  store: Store;
  config: Config;
  accounts: readonly ResolvedAccount[];
  log: Logger;
  /** Default: config.sync.sources. */
  sources?: readonly Source[];
  /** Overrides the configured bucket sizes of every billing source. */
  bucketSize?: BucketSize;
  since?: Date;
  until?: Date;
  /** Recorded in the run log: 'sync' or 'run'. */
  command?: string;
  args?: string;
  /** Aborting stops after the chunk in flight is committed. */
  signal?: AbortSignal;
  progress?: Progress;
  /** Client tuning (tests, benchmarks). */
  client?: Partial<Pick<ApiClientOptions, 'initialRatePerSecond' | 'maxRetries' | 'timeouts'>>;
}

export interface RangeSummary {
  account: string;
  source: Source;
  bucketSize: BucketSize | '';
  start?: string;
  end?: string;
  requests: number;
  records: number;
  /** Sum of total_amount over the records loaded, micro-dollars. */
  amountMicros: bigint;
  restated: number;
  completeThrough?: string | null;
  status: 'ok' | 'failed' | 'skipped' | 'stopped';
  error?: string;
}

export interface SyncResult {
  runId: string;
  status: Exclude<RunStatus, 'running'>;
  ranges: RangeSummary[];
  errors: Array<{ account: string; source: string; message: string }>;
  warnings: string[];
  requests: number;
  retries: number;
  rateLimited: number;
  records: number;
  bytes: number;
}

function isAuthFailure(e: unknown): boolean {
  return e instanceof ApiAuthError || e instanceof ApiForbiddenError;
}

async function readWatermark(store: Store, account: string, source: string, size: string): Promise<Watermark | undefined> {
  const row = await store.one<{ loaded_from: string | null; loaded_through: string | null; complete_through: string | null }>(
    `select loaded_from::varchar as loaded_from, loaded_through::varchar as loaded_through, complete_through::varchar as complete_through
     from _meta_watermarks where account = $1 and source = $2 and bucket_size = $3`,
    [account, source, size],
  );
  if (!row) return undefined;
  const d = (s: string | null) => (s ? new Date(s) : null);
  return { loadedFrom: d(row.loaded_from), loadedThrough: d(row.loaded_through), completeThrough: d(row.complete_through) };
}

/**
 * Expected records per bucket before the first answer of this sync, and whether it is known or guessed. Known: what
 * the last load of this source held per bucket (the same bucket size first; another size's window still counts the
 * resources billed in it, which is what a dense grid multiplies by the buckets). Guessed: twice the inventory's
 * object count – billing also covers resources deleted since, which the inventory no longer lists – else a tenth
 * of the bound. A guess makes the first request a probe (syncRange).
 */
export async function initialDensity(
  store: Store,
  account: string,
  source: BillingSource,
  size: BucketSize,
  maxRecords: number,
): Promise<{ density: number; known: boolean }> {
  const def = BILLING_SOURCE_DEFS[source];
  if (!def.inventoryKind) return { density: 1, known: true };
  const last = await store.one<{ records: string; ws: string; we: string; size: BucketSize }>(
    `select records::varchar as records, window_start::varchar as ws, window_end::varchar as we, bucket_size as size from _meta_loads
     where account = $1 and source = $2 and records > 0 order by bucket_size = $3 desc, extracted_at desc limit 1`,
    [account, source, size],
  );
  if (last) {
    const buckets = countBuckets(new Date(last.ws), new Date(last.we), last.size);
    if (buckets > 0) return { density: Number(last.records) / buckets, known: true };
  }
  const inv = await store.one<{ n: string }>(
    `select count(*)::varchar as n from raw_inventory where account = $1 and kind = $2 and valid_to = 'infinity'`,
    [account, def.inventoryKind],
  );
  const n = Number(inv?.n ?? 0);
  return { density: n > 0 ? 2 * n : maxRecords / 10, known: false };
}

/** The share of the bound a probe request aims at when the density is only guessed. */
const PROBE_SHARE = 0.25;

function plansFor(config: Config, source: BillingSource, override: BucketSize | undefined): BucketPlan[] {
  return override ? [{ size: override }] : config.sync.bucketSizes[source];
}

async function upsertAccount(store: Store, account: ResolvedAccount): Promise<void> {
  await store.run(
    `insert into _meta_accounts as a values ($name, $url, $simulated, now(), now())
     on conflict (account) do update set api_url = excluded.api_url, simulated = excluded.simulated, last_sync_at = now()`,
    { name: account.name, url: account.apiUrl, simulated: account.simulated },
  );
}

/** Read one range chunk by chunk; each chunk is its own transaction. */
async function syncRange(
  options: SyncOptions,
  client: ApiClient,
  account: ResolvedAccount,
  range: PlannedRange,
  summary: RangeSummary,
  runId: string,
  serverNow: () => Date,
): Promise<void> {
  const { store, config } = options;
  const def = BILLING_SOURCE_DEFS[range.source];
  const max = config.sync.maxRecordsPerRequest;
  const initial = await initialDensity(store, account.name, range.source, range.bucketSize, max);
  let density = initial.density;
  const total = countBuckets(range.start, range.end, range.bucketSize);
  // a guessed density could put several times the bound into one answer: probe with a quarter of it first, unless
  // even the guess says the whole range fits in such a quarter
  let probe = !initial.known && density * total > max * PROBE_SHARE;
  // a dense grid bills every resource seen in the window for every bucket, so a longer window also holds more
  // resources: a chunk may be at most twice as long as the one its density was learned from
  let lastBuckets = Infinity;
  const fetchChunk = (from: Date) => {
    let chunk = nextChunk(from, range.end, range.bucketSize, density, probe ? max * PROBE_SHARE : max);
    if (chunk.buckets > 2 * lastBuckets) {
      const end = addBuckets(from, range.bucketSize, 2 * lastBuckets);
      chunk = { ...chunk, end, buckets: 2 * lastBuckets };
    }
    lastBuckets = chunk.buckets;
    probe = false;
    const request = client.billing(range.source, { startTime: chunk.start, endTime: chunk.end, bucketSize: range.bucketSize });
    // a load failing first must not leave this rejection unhandled; it is awaited (and thrown) in turn otherwise
    request.catch(() => undefined);
    return { chunk, request };
  };
  // pipelined: the next window is requested while this page loads, so the quota is not idle during loads
  let pending: ReturnType<typeof fetchChunk> | undefined = range.start < range.end ? fetchChunk(range.start) : undefined;
  while (pending) {
    if (options.signal?.aborted) {
      summary.status = 'stopped';
      return;
    }
    const { chunk } = pending;
    const page = await pending.request;
    summary.requests++;
    const read = countBuckets(page.query.startTime, page.query.endTime, range.bucketSize);
    if (read > 0 && page.records.length > 0) density = page.records.length / read;
    const t = page.query.endTime > chunk.end ? page.query.endTime : chunk.end;
    const more = t < range.end;
    pending = more && !options.signal?.aborted ? fetchChunk(t) : undefined;
    const result = await loadBillingPage(
      {
        store,
        runId,
        account: account.name,
        def,
        bucketSize: range.bucketSize,
        serverNow: serverNow(),
        completeThrough: range.completeThrough,
        lastOfRange: page.query.endTime >= range.end,
      },
      page,
      Object.values(BILLING_SOURCE_DEFS),
    );
    summary.records += result.records;
    summary.amountMicros += result.totalMicros;
    summary.restated += result.restated;
    options.progress?.update({
      account: account.name,
      source: range.source,
      bucketSize: range.bucketSize,
      bucketsDone: Math.min(total, countBuckets(range.start, t, range.bucketSize)),
      bucketsTotal: total,
      requests: summary.requests,
      records: summary.records,
    });
    if (more && !pending) summary.status = 'stopped';
  }
}

export async function runSync(options: SyncOptions): Promise<SyncResult> {
  const { store, config, log } = options;
  const sources = options.sources ?? config.sync.sources;
  const interrupted = await closeInterruptedRuns(store);
  if (interrupted > 0) log.warn(`${interrupted} earlier run(s) ended without finishing (killed?); their committed chunks stay, the rest is read again now`);
  const runId = await startRun(store, options.command ?? 'sync', options.args ?? '');
  const ranges: RangeSummary[] = [];
  const errors: SyncResult['errors'] = [];
  const warnings: string[] = [];
  const counters = { requests: 0, retries: 0, rateLimited: 0, bytes: 0 };
  const authFailures: unknown[] = [];

  for (const account of options.accounts) {
    const client = new ApiClient({ baseUrl: account.apiUrl, apiKey: account.apiKey, apiKeyEnv: account.apiKeyEnv, log: log.child(account.name), ...options.client });
    try {
      await client.probe(options.signal);
      const serverNow = () => client.serverTime() ?? new Date();
      await upsertAccount(store, account);
      if (sources.includes('inventory')) {
        const summary: RangeSummary = { account: account.name, source: 'inventory', bucketSize: '', requests: 0, records: 0, amountMicros: 0n, restated: 0, status: 'ok' };
        ranges.push(summary);
        const before = client.stats.requests;
        const read = await fetchInventory(client, log.child(account.name));
        const loaded = await loadInventory(store, runId, account.name, serverNow(), read);
        summary.records = read.docs.length;
        summary.requests = client.stats.requests - before;
        warnings.push(...loaded.warnings);
        if (loaded.failed.length > 0) {
          const first = loaded.failed[0]!;
          if (isAuthFailure(first.error)) throw first.error;
          summary.status = 'failed';
          summary.error = loaded.failed.map((f) => `${f.kind}: ${errorMessage(f.error)}`).join('; ');
          errors.push({ account: account.name, source: 'inventory', message: summary.error });
        }
      }
      for (const source of BILLING_SOURCES) {
        if (!sources.includes(source)) continue;
        for (const plan of plansFor(config, source, options.bucketSize)) {
          const summary: RangeSummary = { account: account.name, source, bucketSize: plan.size, requests: 0, records: 0, amountMicros: 0n, restated: 0, status: 'ok' };
          ranges.push(summary);
          if (options.signal?.aborted) {
            summary.status = 'stopped';
            continue;
          }
          try {
            const range = planRange({
              source,
              plan,
              now: serverNow(),
              config: config.sync,
              watermark: await readWatermark(store, account.name, source, plan.size),
              since: options.since,
              until: options.until,
            });
            if (!range) {
              summary.status = 'skipped';
              continue;
            }
            summary.start = range.start.toISOString();
            summary.end = range.end.toISOString();
            await syncRange(options, client, account, range, summary, runId, serverNow);
          } catch (e) {
            if (e instanceof ApiAuthError) throw e; // the key is rejected: nothing else of this account can work
            summary.status = 'failed';
            summary.error = errorMessage(e);
            errors.push({ account: account.name, source: `${source} ${plan.size}`, message: summary.error });
            if (e instanceof ApiForbiddenError) authFailures.push(e);
            log.error(`${account.name} ${source} ${plan.size}: ${summary.error}`);
          } finally {
            const wm = await readWatermark(store, account.name, source, plan.size);
            summary.completeThrough = wm?.completeThrough?.toISOString() ?? null;
          }
        }
      }
    } catch (e) {
      authFailures.push(...(isAuthFailure(e) ? [e] : []));
      errors.push({ account: account.name, source: '*', message: errorMessage(e) });
      log.error(`${account.name}: ${errorMessage(e)}`);
    } finally {
      counters.requests += client.stats.requests;
      counters.retries += client.stats.retries;
      counters.rateLimited += client.stats.rateLimited;
      counters.bytes += client.stats.bytes;
      await client.close();
    }
  }
  options.progress?.done();

  const failed = ranges.filter((r) => r.status === 'failed').length + errors.filter((e) => e.source === '*').length;
  const succeeded = ranges.filter((r) => r.status === 'ok' || r.status === 'skipped').length;
  const stopped = ranges.some((r) => r.status === 'stopped');
  const status: SyncResult['status'] = failed === 0 && !stopped ? 'success' : succeeded > 0 ? 'partial' : 'failed';
  const records = ranges.reduce((s, r) => s + r.records, 0);
  await finishRun(store, runId, status, counters, errors, { ranges, warnings });
  const result: SyncResult = { runId, status, ranges, errors, warnings, ...counters, records };
  // a key that may not read what it must is a configuration problem (exit 2), not an outage
  const billingOk = ranges.some((r) => r.source !== 'inventory' && (r.status === 'ok' || r.status === 'skipped'));
  if (authFailures.length > 0 && !billingOk) throw authFailures[0];
  return result;
}
