// Fetching one planned range, chunk by chunk, without touching the database: each page's records go to a spool file
// and the page is handed on to be loaded while the next one is fetched. The next window is requested while the
// current answer is read, so the quota is never idle.
import type { ApiClient, BillingPage } from '../api/index.ts';
import { addBuckets, countBuckets } from '../util/buckets.ts';
import type { SpooledPage } from './load-billing.ts';
import type { Progress } from './progress.ts';
import type { Spool } from './spool.ts';
import { nextChunk, type PlannedRange } from './window-plan.ts';

/** One answer as it will be loaded: the page and what the loader needs to know about where it sits. */
export interface FetchedPage {
  range: PlannedRange;
  page: SpooledPage;
  /** The platform's time when the page was read: loaded_through never runs ahead of it. */
  serverNow: Date;
  /** The last chunk of its range (the watermark's last_success_at moves only then). */
  lastOfRange: boolean;
}

export interface FetchRangeOptions {
  client: ApiClient;
  account: string;
  range: PlannedRange;
  maxRecords: number;
  /** Records per bucket expected before the first answer, and whether that is known or only guessed. */
  density: { perBucket: number; known: boolean };
  signal?: AbortSignal;
  progress?: Progress;
  spool: Spool;
  /** Hand a page on to be loaded; resolves once it is queued, false when the range failed to load (stop reading it). */
  onPage(page: FetchedPage): Promise<boolean>;
}

export interface FetchedRange {
  requests: number;
  records: number;
  /** False when aborted or failed before the range's end. */
  complete: boolean;
  /** Why the range stopped early: the pages before it are still good and are loaded. */
  error?: unknown;
}

/** The share of the bound a probe request aims at when the density is only guessed. */
const PROBE_SHARE = 0.25;

export async function fetchRange(options: FetchRangeOptions): Promise<FetchedRange> {
  const { client, range, maxRecords: max, signal } = options;
  let density = options.density.perBucket;
  const total = countBuckets(range.start, range.end, range.bucketSize);
  // a guessed density could put several times the bound into one answer: probe with a quarter of it first, unless
  // even the guess says the whole range fits in such a quarter
  let probe = !options.density.known && density * total > max * PROBE_SHARE;
  // a dense grid bills every resource seen in the window for every bucket, so a longer window also holds more
  // resources: a chunk may be at most twice as long as the one its density was learned from
  let lastBuckets = Infinity;
  const request = (from: Date) => {
    let chunk = nextChunk(from, range.end, range.bucketSize, density, probe ? max * PROBE_SHARE : max);
    if (chunk.buckets > 2 * lastBuckets) chunk = { ...chunk, end: addBuckets(from, range.bucketSize, 2 * lastBuckets), buckets: 2 * lastBuckets };
    lastBuckets = chunk.buckets;
    probe = false;
    const answer = client.billing(range.source, { startTime: chunk.start, endTime: chunk.end, bucketSize: range.bucketSize }, signal);
    // a failure is thrown when this answer's turn comes; it must not be an unhandled rejection before that
    answer.catch(() => undefined);
    return { chunk, answer };
  };

  const result: FetchedRange = { requests: 0, records: 0, complete: true };
  let pending = range.start < range.end ? request(range.start) : undefined;
  while (pending) {
    const { chunk } = pending;
    let page: BillingPage;
    try {
      page = await pending.answer;
    } catch (e) {
      return { ...result, complete: false, error: e };
    }
    result.requests++;
    result.records += page.recordCount;
    const read = countBuckets(page.query.startTime, page.query.endTime, range.bucketSize);
    if (read > 0 && page.recordCount > 0) density = page.recordCount / read;
    // the API snaps endTime up to the bucket end (billing-api-v2.md §2): continue from whichever is later
    const t = page.query.endTime > chunk.end ? page.query.endTime : chunk.end;
    const more = t < range.end;
    pending = more && !signal?.aborted ? request(t) : undefined;
    const { recordsJson, ...meta } = page;
    let spooled: FetchedPage;
    try {
      spooled = { range, page: { ...meta, file: await options.spool.write(recordsJson) }, serverNow: client.serverTime() ?? new Date(), lastOfRange: page.query.endTime >= range.end };
    } catch (e) {
      return { ...result, complete: false, error: e };
    }
    if (!(await options.onPage(spooled))) return { ...result, complete: false };
    options.progress?.update({
      account: options.account,
      source: range.source,
      bucketSize: range.bucketSize,
      bucketsDone: Math.min(total, countBuckets(range.start, t, range.bucketSize)),
      bucketsTotal: total,
      requests: result.requests,
      records: result.records,
    });
    if (more && !pending) result.complete = false;
  }
  return result;
}
