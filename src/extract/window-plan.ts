// Window planning. The billing API has no pagination: a response holds every record of its window (resources ×
// buckets), so the only way to bound a response is to choose the window. For each (source, bucket size) the planner
// decides which range to read – a backfill on the first sync, the trailing lookback plus anything new afterwards –
// and the chunker splits that range into as few requests as possible whose expected record count stays under the bound.
import type { BucketPlan, BillingSource, SyncConfig } from '../config/sync.ts';
import { addBuckets, ceilToBucket, countBuckets, floorToBucket, type BucketSize } from '../util/buckets.ts';

// a UTC day is exactly 86,400,000 ms: date-fns's subDays would need a UTC TZDate for the same instant
const DAY_MS = 86_400_000;

export interface Watermark {
  loadedFrom: Date | null;
  loadedThrough: Date | null;
  completeThrough: Date | null;
}

export interface RangeInput {
  source: BillingSource;
  plan: BucketPlan;
  /** The platform's current time (its Date header), not the local clock. */
  now: Date;
  config: Pick<SyncConfig, 'start' | 'lookbackBuckets'>;
  watermark: Watermark | undefined;
  /** --since / --until from the command line. */
  since?: Date;
  until?: Date;
}

export interface PlannedRange {
  source: BillingSource;
  bucketSize: BucketSize;
  /** Bucket boundaries: [start, end). end may be the end of the still-open bucket. */
  start: Date;
  end: Date;
  /** Buckets ending at or before this are final once read (older than the lookback). */
  completeThrough: Date;
  reason: 'backfill' | 'incremental' | 'explicit';
}

/** Where a first sync starts: an RFC 3339 date-time or a duration back from now (P90D). */
export function resolveStart(start: string, now: Date): Date {
  const m = /^P(\d+)D$/.exec(start);
  if (m) return new Date(now.getTime() - Number(m[1]) * DAY_MS);
  return new Date(start);
}

/** Where a backfill of this (source, bucket size) starts: the configured start, no further back than lastDays. */
function backfillStart(input: RangeInput): Date {
  const size = input.plan.size;
  const start = floorToBucket(resolveStart(input.config.start, input.now), size);
  if (input.plan.lastDays === undefined) return start;
  const earliest = floorToBucket(new Date(input.now.getTime() - input.plan.lastDays * DAY_MS), size);
  return start < earliest ? earliest : start;
}

/**
 * A backfill is read newest-first (fetch-range.ts): one that was killed part-way has loaded its newest windows but not
 * its oldest, so its history starts after where a backfill starts. It is read again from the start – its newest part
 * included, as a range is one span – rather than left with a hole no incremental sync would fill.
 */
function backfillInterrupted(input: RangeInput, wm: Watermark): boolean {
  return wm.loadedFrom !== null && wm.loadedFrom > backfillStart(input);
}

/** The range one (source, bucket size) must read on this sync, or undefined when there is nothing to read. */
export function planRange(input: RangeInput): PlannedRange | undefined {
  const size = input.plan.size;
  const openBucket = floorToBucket(input.now, size);
  const lookbackStart = addBuckets(openBucket, size, -input.config.lookbackBuckets);
  let end = ceilToBucket(input.until ?? input.now, size);
  const openEnd = addBuckets(openBucket, size, 1);
  if (end > openEnd) end = openEnd; // nothing exists after the open bucket
  let start: Date;
  let reason: PlannedRange['reason'];
  const wm = input.watermark;
  if (input.since) {
    start = floorToBucket(input.since, size);
    reason = 'explicit';
  } else if (wm?.loadedThrough && !backfillInterrupted(input, wm)) {
    // re-read whatever was not final at the last read (after its complete-through: still open or restatable),
    // the current lookback, and everything after the last read
    let resumeAt = floorToBucket(wm.loadedThrough, size);
    if (wm.completeThrough && wm.completeThrough < resumeAt) resumeAt = floorToBucket(wm.completeThrough, size);
    start = resumeAt < lookbackStart ? resumeAt : lookbackStart;
    reason = 'incremental';
  } else {
    start = backfillStart(input);
    reason = 'backfill';
  }
  if (input.plan.lastDays !== undefined) {
    // e.g. hourly detail only for the last 14 days: never reach further back than that for this size
    const earliest = floorToBucket(new Date(input.now.getTime() - input.plan.lastDays * DAY_MS), size);
    if (start < earliest) start = earliest;
  }
  if (start >= end) return undefined;
  return { source: input.source, bucketSize: size, start, end, completeThrough: lookbackStart, reason };
}

export interface Chunk {
  start: Date;
  end: Date;
  buckets: number;
  expectedRecords: number;
}

/**
 * The next chunk of [start, end): as many buckets as fit `maxRecords` at `recordsPerBucket`, but balanced over the
 * chunks still needed, so a range needing 2.1 chunks' worth is read in 3 equal requests rather than 2 full ones and
 * a sliver. Called once per request with the density learned from the previous answer.
 */
export function nextChunk(start: Date, end: Date, size: BucketSize, recordsPerBucket: number, maxRecords: number): Chunk {
  const remaining = countBuckets(start, end, size);
  const density = Math.max(recordsPerBucket, 1e-9);
  // a little headroom: the next window may hold a few more resources than the last one did
  const target = maxRecords * 0.95;
  const perChunk = Math.max(1, Math.floor(target / density));
  const chunksLeft = Math.ceil(remaining / perChunk);
  const buckets = Math.max(1, Math.min(remaining, Math.ceil(remaining / chunksLeft)));
  const chunkEnd = addBuckets(start, size, buckets);
  return { start, end: chunkEnd > end ? end : chunkEnd, buckets, expectedRecords: Math.round(buckets * recordsPerBucket) };
}

/** Every chunk of a range at a fixed density – what `sync --plan` prints, and the request count it costs. */
export function chunkRange(range: Pick<PlannedRange, 'start' | 'end' | 'bucketSize'>, recordsPerBucket: number, maxRecords: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let t = range.start; t < range.end; ) {
    const c = nextChunk(t, range.end, range.bucketSize, recordsPerBucket, maxRecords);
    chunks.push(c);
    t = c.end;
  }
  return chunks;
}

/**
 * What the newest-first planner knows about a range's resources (billing-api-v2.md §2: metadata.unique*Count).
 * A window of B buckets ending at t covers the resources alive at t plus those that ended inside it, about
 * `alive + churn·B`, and holds `fill` of resources × buckets as records (1 for a dense grid, which bills every
 * resource seen in the window for every bucket; less for a sparse one).
 */
export interface ResourceModel {
  alive: number;
  churn: number;
  fill: number;
}

/** The share of the bound a chunk aims at: the next window may hold a few more resources than modelled. */
const TARGET_SHARE = 0.95;

/**
 * The newest chunk of [start, end): as many buckets back from `end` as the model says fit `maxRecords`, the records
 * growing with the window (alive + churn·B)·B·fill. Read newest-first, an account that grows over time only gets
 * sparser further back, so a chunk sized on the newer answer does not overflow the older one – no ramp is needed.
 */
export function chunkEndingAt(start: Date, end: Date, size: BucketSize, model: ResourceModel, maxRecords: number): Chunk {
  const remaining = countBuckets(start, end, size);
  const target = maxRecords * TARGET_SHARE;
  const a = Math.max(model.alive, 1e-9) * model.fill;
  const c = Math.max(model.churn, 0) * model.fill;
  // the largest B with c·B² + a·B ≤ target
  const fit = c > 0 ? (-a + Math.sqrt(a * a + 4 * c * target)) / (2 * c) : target / a;
  const buckets = Math.max(1, Math.min(remaining, Math.floor(fit)));
  const chunkStart = addBuckets(end, size, -buckets);
  return {
    start: chunkStart < start ? start : chunkStart,
    end,
    buckets,
    expectedRecords: Math.round((model.alive + model.churn * buckets) * buckets * model.fill),
  };
}

/**
 * Update the model from an answer of `buckets` buckets holding `records` records of `unique` resources (undefined
 * when the route has no ids or the metadata did not say: then every record is taken as its own resource per bucket).
 * The resources alive at the window's end were modelled as `model.alive`; those beyond it ended inside the window,
 * which gives the churn. The next (older) window ends where this one starts: its alive count is what this window
 * covered less its churn. Churn only grows, so a quiet window never makes the next one overflow.
 */
export function learnFromAnswer(model: ResourceModel, buckets: number, records: number, unique: number | undefined): ResourceModel {
  if (buckets <= 0 || records <= 0) return model;
  const seen = unique !== undefined && unique > 0 ? unique : records / buckets;
  const churn = Math.max(model.churn, (seen - model.alive) / buckets, 0);
  return {
    alive: Math.max(1, seen - churn * buckets),
    churn,
    fill: Math.min(1, records / (seen * buckets)),
  };
}
