// Fetching one planned range, chunk by chunk, without touching the database: each page's records go to a spool file
// and the page is handed on to be loaded while the next one is fetched. The next window is requested while the
// current answer is read, so the quota is never idle.
import type { ApiClient, BillingPage } from '../api/index.ts';
import { countBuckets } from '../util/buckets.ts';
import type { SpooledPage } from './load-billing.ts';
import type { Progress } from './progress.ts';
import type { Spool } from './spool.ts';
import { chunkEndingAt, learnFromAnswer, type PlannedRange, type ResourceModel } from './window-plan.ts';

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

/** A guessed resource count (no earlier load to go by) leaves this much room for resources that ended in the window. */
const GUESS_MARGIN = 1.3;

/**
 * Newest-first (window-plan.ts chunkEndingAt): the first window ends at the range's end, where the inventory's count
 * of resources is the density, and each answer's unique count sizes the next, older window. An account's history
 * grows toward now, so the older windows only get sparser: no probe, no ramp. A kill part-way leaves the watermark
 * spanning the newest windows; planRange then reads the backfill again from its start.
 */
export async function fetchRange(options: FetchRangeOptions): Promise<FetchedRange> {
  const { client, range, maxRecords: max, signal } = options;
  const { perBucket, known } = options.density;
  let model: ResourceModel = { alive: known ? perBucket : perBucket * GUESS_MARGIN, churn: 0, fill: 1 };
  let first = true;
  const total = countBuckets(range.start, range.end, range.bucketSize);
  const request = (to: Date) => {
    const chunk = chunkEndingAt(range.start, to, range.bucketSize, model, max);
    const answer = client.billing(range.source, { startTime: chunk.start, endTime: chunk.end, bucketSize: range.bucketSize }, signal);
    // a failure is thrown when this answer's turn comes; it must not be an unhandled rejection before that
    answer.catch(() => undefined);
    return { chunk, answer };
  };

  const result: FetchedRange = { requests: 0, records: 0, complete: true };
  let pending = range.start < range.end ? request(range.end) : undefined;
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
    // the first window's alive count was the inventory's (or a guess): what it really held is what the answer says
    if (first) model = { ...model, alive: known ? model.alive : perBucket };
    first = false;
    model = learnFromAnswer(model, read, page.recordCount, page.stated.uniqueCount);
    // the API snaps startTime down to a bucket start (billing-api-v2.md §2): continue below whichever is earlier
    const t = page.query.startTime < chunk.start ? page.query.startTime : chunk.start;
    const more = t > range.start;
    pending = more && !signal?.aborted ? request(t) : undefined;
    const { recordsJson, ...meta } = page;
    let spooled: FetchedPage;
    try {
      spooled = { range, page: { ...meta, file: await options.spool.write(recordsJson) }, serverNow: client.serverTime() ?? new Date(), lastOfRange: !more };
    } catch (e) {
      return { ...result, complete: false, error: e };
    }
    if (!(await options.onPage(spooled))) return { ...result, complete: false };
    options.progress?.update({
      account: options.account,
      source: range.source,
      bucketSize: range.bucketSize,
      bucketsDone: Math.min(total, countBuckets(t, range.end, range.bucketSize)),
      bucketsTotal: total,
      requests: result.requests,
      records: result.records,
    });
    if (more && !pending) result.complete = false;
  }
  return result;
}
