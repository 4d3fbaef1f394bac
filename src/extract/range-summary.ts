// What a sync reports per (account, source, bucket size) – the rows of its summary table and of _meta_runs.summary.
import type { Source } from '../config/sync.ts';
import type { BucketSize } from '../util/buckets.ts';

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
