// What a sync is asked (SyncOptions) and what it answers (SyncResult): shared by the run (sync.ts) and each
// account's part of it (sync-account.ts).
import type { ApiClientOptions } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { Source } from '../config/sync.ts';
import type { Store } from '../store/database.ts';
import type { WriteSessions } from '../store/shared-database.ts';
import type { BucketSize } from '../util/buckets.ts';
import type { Logger } from '../util/log.ts';
import type { ResolvedAccount } from './accounts.ts';
import type { Progress } from './progress.ts';
import type { RangeSummary } from './range-summary.ts';
import type { RunStatus } from './runs.ts';

export interface SyncOptions {
  /** How the sync reaches the database: short writing sessions (writeSessions) … */
  sessions?: WriteSessions;
  /** … or a store the caller holds open for the whole sync (tests, benchmarks). */
  store?: Store;
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
  /** Aborting stops after the request in flight; what was read is still loaded. */
  signal?: AbortSignal;
  progress?: Progress;
  /** Client tuning (tests, benchmarks). */
  client?: Partial<Pick<ApiClientOptions, 'initialRatePerSecond' | 'maxRetries' | 'timeouts'>>;
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
