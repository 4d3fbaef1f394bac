// The ledger's types: the test-facing `Ledger` (ground truth in micro-dollars) and the columnar `RecordTable` the
// HTTP layer serialises.
import type { BucketSize } from '../../util/buckets.ts';
import type { AmountField, BillingSource, SourceDef } from './sources.ts';

/** Amounts in micro-dollars by the route's API field names (`totalAmount`, `gpuAmount`, …). */
export type Amounts<S extends BillingSource = BillingSource> = Record<AmountField<S>, bigint>;

export interface LedgerSumQuery<S extends BillingSource = BillingSource> {
  source: S;
  /** Snapped down to the hour. */
  start: Date;
  /** Exclusive; snapped up to the hour. */
  end: Date;
  /** Only this resource (pods, serverless, network-volumes, clusters). */
  resourceId?: string;
}

export interface LedgerRecord<S extends BillingSource = BillingSource> {
  startTime: string;
  endTime: string;
  /** podId / serverlessId / networkVolumeId / clusterId; null on the aggregate and public-endpoint routes. */
  resourceId: string | null;
  /** Every amount field of the route, micro-dollars. */
  amounts: Amounts<S>;
}

export interface LedgerRecordsOptions {
  resourceId?: string;
  /** Default: the simulator's `sparse` option. */
  sparse?: boolean;
}

/** Ground truth for tests, answered as the API would answer at the simulator's current now. */
export interface Ledger {
  now(): Date;
  /** The route's amount fields in API order (totalAmount first). */
  fields<S extends BillingSource>(source: S): readonly AmountField<S>[];
  /** Every id the source ever bills (sorted); empty for id-less sources. */
  resourceIds(source: BillingSource): string[];
  sum<S extends BillingSource>(query: LedgerSumQuery<S>): Amounts<S>;
  /** The records the route returns for this window (snapped like the API: start down, end up). */
  records<S extends BillingSource>(source: S, start: Date, end: Date, bucketSize: BucketSize, options?: LedgerRecordsOptions): LedgerRecord<S>[];
}

export interface TableQuery {
  source: BillingSource;
  /** Resolved window, bucket-aligned. */
  start: number;
  end: number;
  bucketSize: BucketSize;
  resourceId: string | null;
  sparse: boolean;
  /** Refuse (TooManyRecordsError) answers that would hold more records than this. */
  maxRecords?: number;
}

export class TooManyRecordsError extends RangeError {
  constructor(readonly records: number, readonly max: number) {
    super(`the answer would hold ${records} records (at most ${max}); choose a shorter window or a larger bucketSize`);
  }
}

/** The records of one answer in columnar form (no per-record objects: a large answer has ~300k records). */
export interface RecordTable {
  def: SourceDef;
  bucketStarts: number[];
  bucketEnds: number[];
  count: number;
  bucketOf: Uint32Array;
  /** Index into `ids`, or -1 for id-less sources. */
  resourceOf: Int32Array;
  ids: string[];
  /** count × def.fields.length integer micro-dollars, fields in API order. */
  amounts: Float64Array;
  totals: Float64Array;
  uniqueCount: number;
}

export interface LedgerInternal extends Ledger {
  table(query: TableQuery): RecordTable;
  /** Final micro-dollars of everything billed in [a, b) (hour-snapped), whatever the current now: unrounded sum of rounded hours. */
  finalTotal(a: number, b: number): number;
  /** Micro-dollars per hour accruing at `at` over every meter (running pods, warm workers, storage). */
  spendRatePerHour(at: number): number;
  /** A client changed this resource from now on (account/changes.ts): its cached day sums are recomputed. */
  resourceChanged(resourceId: string): void;
}
