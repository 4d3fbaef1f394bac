// Reading one billing answer (billing-api-v2.md §2 "Response shape"): strict on data, lenient on derivable metadata.
// The records are not parsed here: their bytes go to DuckDB's read_json, and the loader checks every declared field,
// the ids, the times and the window in SQL (src/extract/load-billing.ts). Here only the metadata is parsed and
// validated. metadata.totals, metadata.recordCount and metadata.unique*Count are sums and counts over the records
// (§2 invariants): a missing or unusable one is derived at load with a warning said here; a stated one is handed to
// the loader, which fails the page when the records disagree (records were lost or corrupted on the way).
import { z } from 'zod';
import type { BucketSize } from '../util/buckets.ts';
import { isRfc3339 } from '../util/dates.ts';
import { decimalStringToMicros, microsToDecimalString, numberToMicros } from '../util/decimal.ts';
import { BILLING_SOURCE_DEFS } from '../model/index.ts';
import type { SplitBody } from './billing-body.ts';
import { ApiResponseError } from './errors.ts';
import { billingResponseSchema, describeIssue, type BillingRoute } from './schemas.ts';

export interface BillingQuery {
  startTime: Date;
  endTime: Date;
  bucketSize: BucketSize;
}

/** What the metadata states about the records; the loader checks each against them. Absent: derived at load. */
export interface StatedMetadata {
  recordCount?: number;
  /** Stated totals as exact decimal text, by API field name. */
  totals: Record<string, string>;
  /** metadata.unique*Count (routes with an id). */
  uniqueCount?: number;
}

export interface BillingPage {
  route: BillingRoute;
  path: string;
  /** How messages name the request: `GET /v2/billing/pods [start, end) day`. */
  what: string;
  /** The window as the server resolved it (metadata.query). */
  query: { startTime: Date; endTime: Date; bucketSize: BucketSize };
  /** The records array exactly as it arrived, `[` … `]`, for DuckDB's read_json. */
  recordsJson: Buffer;
  /** How many records the page holds: as stated, or counted when the metadata does not say. */
  recordCount: number;
  stated: StatedMetadata;
  /** How the body was read: 'split' (records untouched) or 'parsed' (the slow path for a body of another shape). */
  read: 'split' | 'parsed';
  bytes: number;
  /** Derivable metadata that was missing or unusable, and is derived from the records at load instead. */
  warnings: string[];
}

const timestamp = z.string().refine(isRfc3339, 'expected an RFC 3339 date-time');
const metadataSchema = z.looseObject({
  query: z.looseObject({ startTime: timestamp, endTime: timestamp, bucketSize: z.enum(['hour', 'day', 'week', 'month', 'year']) }),
  recordCount: z.unknown().optional(),
  totals: z.unknown().optional(),
});
const envelopeSchema = z.looseObject({ metadata: metadataSchema });

/** A quoted amount (`"gpuAmount":"0.03"`) would be cast silently by read_json: strictness needs the slow check. */
function hasQuotedAmount(records: Buffer, fields: readonly string[]): boolean {
  // one pass per field over tens of MB (Buffer.includes runs at memory speed); the spaced form only when spaces occur
  const spaced = records.includes('": ');
  return fields.some((f) => records.includes(`"${f}":"`) || (spaced && records.includes(`"${f}": "`)));
}

/**
 * A stated total exactly as its JSON text says (123456789012.123456 has more digits than a double keeps). The totals
 * object is flat numbers, so its text is found by key; the parsed number only confirms that the right text was found.
 */
function exactTotal(metadataText: string | undefined, field: string, parsed: number): string {
  const totalsAt = metadataText?.indexOf('"totals"') ?? -1;
  if (metadataText && totalsAt >= 0) {
    const m = new RegExp(`"${field}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`).exec(metadataText.slice(totalsAt));
    if (m && Number(m[1]) === parsed) return microsToDecimalString(decimalStringToMicros(m[1]!));
  }
  return microsToDecimalString(numberToMicros(parsed));
}

export function parseBillingPage(route: BillingRoute, path: string, what: string, split: SplitBody, bytes: number): BillingPage {
  const def = BILLING_SOURCE_DEFS[route];
  if (split.notAnArray !== undefined || hasQuotedAmount(split.records, def.amountFields)) {
    // only on a suspicious body: the per-record schema names the record and field exactly as before
    const records = split.notAnArray ?? JSON.parse(split.records.toString('utf8'));
    const full = billingResponseSchema(route).safeParse({ records, metadata: split.metadata });
    if (!full.success) throw new ApiResponseError(`${what}: ${describeIssue(full.error)}`);
  }
  const parsed = envelopeSchema.safeParse({ metadata: split.metadata });
  if (!parsed.success) throw new ApiResponseError(`${what}: ${describeIssue(parsed.error)}`);
  const metadata = parsed.data.metadata as z.infer<typeof metadataSchema> & Record<string, unknown>;

  const derived: string[] = [];
  const stated: StatedMetadata = { totals: {} };
  const { recordCount } = metadata;
  if (typeof recordCount === 'number' && Number.isInteger(recordCount) && recordCount >= 0) stated.recordCount = recordCount;
  else derived.push('recordCount');
  const totals = (typeof metadata.totals === 'object' && metadata.totals !== null ? metadata.totals : {}) as Record<string, unknown>;
  for (const f of def.amountFields) {
    const v = totals[f];
    if (typeof v === 'number' && Number.isFinite(v)) stated.totals[f] = exactTotal(split.metadataText, f, v);
    else derived.push(`totals.${f}`);
  }
  if (def.uniqueCountKey) {
    const v = metadata[def.uniqueCountKey];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) stated.uniqueCount = v;
    else derived.push(def.uniqueCountKey);
  }
  // the planner needs the count now; counting means parsing, which only an answer without recordCount costs
  const count = stated.recordCount ?? split.parsedCount ?? (JSON.parse(split.records.toString('utf8')) as unknown[]).length;
  const warnings = derived.length === 0 ? [] : [`${what}: metadata ${derived.join(', ')} missing or unusable; derived from the ${count} records`];
  return {
    route,
    path,
    what,
    query: { startTime: new Date(metadata.query.startTime), endTime: new Date(metadata.query.endTime), bucketSize: metadata.query.bucketSize },
    recordsJson: split.records,
    recordCount: count,
    stated,
    read: split.parsedCount === undefined ? 'split' : 'parsed',
    bytes,
    warnings,
  };
}
