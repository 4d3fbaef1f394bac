// Query parameters of the billing routes (billing-api-v2.md §2): startTime (default now − 30 days, snapped down),
// endTime (exclusive, default now; snapped up unless on a boundary), bucketSize (default day), lastN (the last N
// buckets including the open one; exclusive with startTime/endTime). A rule conflict is 400, a malformed value
// 422 with every problem listed in `errors` (§1, assumed mapping).
import { addBuckets, ceilToBucket, countBuckets, floorToBucket, isBucketSize, BUCKET_SIZES, type BucketSize } from '../../util/buckets.ts';
import { isRfc3339 } from '../../util/dates.ts';
import { SOURCES, type BillingSource } from '../ledger/sources.ts';
import { DAY } from '../time.ts';

export interface BillingQuery {
  source: BillingSource;
  start: number;
  end: number;
  bucketSize: BucketSize;
  /** The filter parameter's value, or null when unset (or when the route has no filter). */
  resourceId: string | null;
}

export type QueryResult = { ok: true; query: BillingQuery } | { ok: false; status: 400 | 422; detail: string; errors: string[] };

/** Beyond this many buckets the simulator refuses the window (it would not fit in one answer). */
export const MAX_BUCKETS = 200_000;

export function parseBillingQuery(source: BillingSource, params: URLSearchParams, now: number): QueryResult {
  const get = (name: string) => params.get(name); // a repeated parameter counts with its first value
  const startRaw = get('startTime');
  const endRaw = get('endTime');
  const sizeRaw = get('bucketSize');
  const lastNRaw = get('lastN');

  if (lastNRaw !== null && (startRaw !== null || endRaw !== null)) {
    const errors = ['lastN cannot be combined with startTime or endTime'];
    return { ok: false, status: 400, detail: errors[0]!, errors };
  }
  const errors: string[] = [];
  if (sizeRaw !== null && !isBucketSize(sizeRaw)) errors.push(`bucketSize must be one of ${BUCKET_SIZES.join(', ')}, got '${sizeRaw}'`);
  if (startRaw !== null && !isRfc3339(startRaw)) errors.push(`startTime must be an RFC 3339 date-time such as 2026-07-01T10:00:00Z, got '${startRaw}'`);
  if (endRaw !== null && !isRfc3339(endRaw)) errors.push(`endTime must be an RFC 3339 date-time such as 2026-07-01T12:00:00Z, got '${endRaw}'`);
  if (lastNRaw !== null && !(/^\d{1,9}$/.test(lastNRaw) && Number(lastNRaw) >= 1)) errors.push(`lastN must be an integer ≥ 1, got '${lastNRaw}'`);
  if (errors.length) return { ok: false, status: 422, detail: errors.join('; '), errors };

  const bucketSize = (sizeRaw ?? 'day') as BucketSize;
  // the open bucket is included: the default end is the end of the bucket holding now
  const openEnd = addBuckets(floorToBucket(new Date(now), bucketSize), bucketSize, 1);
  let start: Date;
  let end: Date;
  if (lastNRaw !== null) {
    end = openEnd;
    start = addBuckets(end, bucketSize, -Number(lastNRaw));
  } else {
    start = floorToBucket(startRaw === null ? new Date(now - 30 * DAY) : new Date(startRaw), bucketSize);
    end = endRaw === null ? openEnd : ceilToBucket(new Date(endRaw), bucketSize);
  }
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) {
    const e = ['the window lies outside the representable date range'];
    return { ok: false, status: 422, detail: e[0]!, errors: e };
  }
  if (start.getTime() >= end.getTime()) {
    const e = [`startTime must be before endTime after snapping to ${bucketSize} buckets (got [${start.toISOString()}, ${end.toISOString()}))`];
    return { ok: false, status: 422, detail: e[0]!, errors: e };
  }
  if (countBuckets(start, end, bucketSize) > MAX_BUCKETS) {
    const e = [`the window holds more than ${MAX_BUCKETS} ${bucketSize} buckets; choose a shorter window or a larger bucketSize`];
    return { ok: false, status: 400, detail: e[0]!, errors: e };
  }
  const filter = SOURCES[source].filterParam;
  return {
    ok: true,
    query: { source, start: start.getTime(), end: end.getTime(), bucketSize, resourceId: filter === null ? null : get(filter) },
  };
}
