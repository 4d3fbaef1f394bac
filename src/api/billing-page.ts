// Reading one billing answer (billing-api-v2.md §2 "Response shape"): strict on data, lenient on derivable metadata.
// Records are validated field by field – a missing or non-numeric amount fails the page, naming the field – and must
// lie inside the answered window. metadata.totals, metadata.recordCount and metadata.unique*Count are sums and counts
// over those records (§2 invariants): when one is absent or not a number, the page warns and derives it; when one is
// present and disagrees with the records, records were lost or corrupted on the way and the page fails.
import type { BucketSize } from '../util/buckets.ts';
import { microsToDecimalString, numberToMicros } from '../util/decimal.ts';
import { ApiResponseError } from './errors.ts';
import { BILLING_AMOUNT_FIELDS, BILLING_ID_FIELD, billingResponseSchema, describeIssue, type BillingRoute } from './schemas.ts';

export interface BillingQuery {
  startTime: Date;
  endTime: Date;
  bucketSize: BucketSize;
}

export interface BillingRecord {
  startTime: Date;
  endTime: Date;
  id: string | null;
  /** Micro-dollars by API field name. */
  amounts: Record<string, bigint>;
}

export interface BillingPage {
  route: BillingRoute;
  path: string;
  /** The window as the server resolved it (metadata.query). */
  query: { startTime: Date; endTime: Date; bucketSize: BucketSize };
  records: BillingRecord[];
  /** Sums over the records (checked against metadata.totals where the answer has them). */
  totals: Record<string, bigint>;
  recordCount: number;
  bytes: number;
  /** The response body exactly as it arrived, for loaders that read JSON themselves (DuckDB read_json). */
  body: string;
  /** Derivable metadata that was missing or unusable, and was derived from the records instead. */
  warnings: string[];
}

interface RawAnswer {
  records: Record<string, unknown>[];
  metadata: {
    query: { startTime: string; endTime: string; bucketSize: BucketSize };
    recordCount?: unknown;
    totals?: unknown;
    [key: string]: unknown;
  };
}

/** `podId` → `uniquePodCount`, `networkVolumeId` → `uniqueNetworkVolumeCount` (§2 "metadata count"). */
function uniqueCountField(idField: string): string {
  return `unique${idField[0]!.toUpperCase()}${idField.slice(1).replace(/Id$/, '')}Count`;
}

export function parseBillingPage(route: BillingRoute, path: string, what: string, answer: { json: unknown; text: string; bytes: number }): BillingPage {
  const parsed = billingResponseSchema(route).safeParse(answer.json);
  if (!parsed.success) throw new ApiResponseError(`${what}: ${describeIssue(parsed.error)}`);
  const body = parsed.data as RawAnswer;
  const fields = BILLING_AMOUNT_FIELDS[route];
  const idField = BILLING_ID_FIELD[route];
  const sums: Record<string, bigint> = Object.fromEntries(fields.map((f) => [f, 0n]));
  const qs = new Date(body.metadata.query.startTime);
  const qe = new Date(body.metadata.query.endTime);
  const ids = new Set<string>();
  const records: BillingRecord[] = new Array(body.records.length);
  for (let i = 0; i < body.records.length; i++) {
    const r = body.records[i]!;
    const amounts: Record<string, bigint> = {};
    for (const f of fields) {
      const micros = numberToMicros(r[f] as number);
      amounts[f] = micros;
      sums[f]! += micros;
    }
    const startTime = new Date(r.startTime as string);
    const endTime = new Date(r.endTime as string);
    if (startTime < qs || endTime > qe) {
      throw new ApiResponseError(`${what}: records[${i}] [${r.startTime}, ${r.endTime}) lies outside the answered window [${body.metadata.query.startTime}, ${body.metadata.query.endTime})`);
    }
    const id = idField ? (r[idField] as string) : null;
    if (id !== null) ids.add(id);
    records[i] = { startTime, endTime, id, amounts };
  }

  const derived: string[] = [];
  const { recordCount } = body.metadata;
  const totals = (typeof body.metadata.totals === 'object' && body.metadata.totals !== null ? body.metadata.totals : {}) as Record<string, unknown>;
  if (typeof recordCount !== 'number' || !Number.isInteger(recordCount) || recordCount < 0) derived.push('recordCount');
  else if (recordCount !== records.length) {
    throw new ApiResponseError(`${what}: metadata.recordCount is ${recordCount} but ${records.length} records arrived`);
  }
  for (const f of fields) {
    const stated = totals[f];
    if (typeof stated !== 'number' || !Number.isFinite(stated)) {
      derived.push(`totals.${f}`);
      continue;
    }
    if (numberToMicros(stated) !== sums[f]) {
      throw new ApiResponseError(`${what}: metadata.totals.${f} is ${stated} but the records add up to ${microsToDecimalString(sums[f]!)}`);
    }
  }
  if (idField) {
    const countField = uniqueCountField(idField);
    const stated = body.metadata[countField];
    if (stated !== ids.size) derived.push(typeof stated === 'number' ? `${countField} (${stated}, records have ${ids.size})` : countField);
  }
  const warnings = derived.length === 0 ? [] : [`${what}: metadata ${derived.join(', ')} missing or unusable; derived from the ${records.length} records`];
  return {
    route,
    path,
    query: { startTime: qs, endTime: qe, bucketSize: body.metadata.query.bucketSize },
    records,
    totals: sums,
    recordCount: records.length,
    bytes: answer.bytes,
    body: answer.text,
    warnings,
  };
}
