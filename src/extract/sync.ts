// The sync engine. Per account: the network half (fetch-account.ts: inventory, then every billing source at each
// configured bucket size, chunk by chunk) runs with the database untouched; each billing page is spooled to a file
// and loaded through a writer that batches pages and holds the database only while they keep coming
// (page-loader.ts); the inventory follows in the same writer. So a sync throttled to a few requests a minute holds
// the database for moments per page, not minutes, and readers never wait (shared-database.ts). A failing source is recorded
// and the others go on; a rejected key stops its account. No remote holds the run hostage: requests have deadlines,
// hosts breakers and the run a budget (run-deadlines.ts). The run log says what happened.
import { ApiAuthError, ApiClient, ApiForbiddenError, type ApiClientOptions } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { Source } from '../config/sync.ts';
import type { Store } from '../store/database.ts';
import { heldSessions, type WriteSessions } from '../store/shared-database.ts';
import type { BucketSize } from '../util/buckets.ts';
import { errorMessage, EXIT, isGpuledgerError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import type { ResolvedAccount } from './accounts.ts';
import { fetchAccount, type AccountHarvest, type FetchAccountOptions } from './fetch-account.ts';
import { loadAccount, queuePage } from './load-account.ts';
import { createPageLoader } from './page-loader.ts';
import { startRunDeadlines } from './run-deadlines.ts';
import type { Progress } from './progress.ts';
import type { RangeSummary } from './range-summary.ts';
import { closeInterruptedRuns, finishRun, startRun, type RunStatus } from './runs.ts';
import { createSpool } from './spool.ts';
import { readSyncState } from './sync-state.ts';

export type { RangeSummary } from './range-summary.ts';

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

/** A rejected key, a forbidden route, a URL that is not the platform: configuration to fix (exit 2), not an outage. */
function isConfigurationFailure(e: unknown): boolean {
  return e instanceof ApiAuthError || e instanceof ApiForbiddenError || (isGpuledgerError(e) && e.exitCode === EXIT.usage);
}

function sessionsOf(options: SyncOptions): WriteSessions {
  if (options.sessions) return options.sessions;
  if (options.store) return heldSessions(options.store);
  throw new Error('runSync needs sessions or a store');
}

/** success: everything read; partial: something failed or was stopped but something else worked; failed: nothing worked. */
export function rollUpStatus(ranges: readonly RangeSummary[], errors: SyncResult['errors']): SyncResult['status'] {
  const failed = ranges.filter((r) => r.status === 'failed').length + errors.filter((e) => e.source === '*').length;
  const succeeded = ranges.filter((r) => r.status === 'ok' || r.status === 'skipped').length;
  const stopped = ranges.some((r) => r.status === 'stopped');
  return failed === 0 && !stopped ? 'success' : succeeded > 0 ? 'partial' : 'failed';
}

export async function runSync(options: SyncOptions): Promise<SyncResult> {
  const { config, log } = options;
  const sessions = sessionsOf(options);
  const sources = options.sources ?? config.sync.sources;
  const { runId, state } = await sessions.write(async (store) => {
    const interrupted = await closeInterruptedRuns(store);
    if (interrupted > 0) log.warn(`${interrupted} earlier run(s) ended without finishing (killed?); their committed chunks stay, the rest is read again now`);
    return { runId: await startRun(store, options.command ?? 'sync', options.args ?? ''), state: await readSyncState(store) };
  }, { publish: false });
  const ranges: RangeSummary[] = [];
  const errors: SyncResult['errors'] = [];
  const warnings: string[] = [];
  const counters = { requests: 0, retries: 0, rateLimited: 0, bytes: 0 };
  const authFailures: unknown[] = [];
  const spool = createSpool();
  const loader = createPageLoader({ sessions, batchRecords: config.sync.maxRecordsPerRequest });
  const deadlines = startRunDeadlines({ budgetMinutes: config.sync.budgetMinutes, stop: options.signal, log });
  const { signal, queueBreakers } = deadlines;
  try {
    for (const account of options.accounts) {
      const client = new ApiClient({ baseUrl: account.apiUrl, apiKey: account.apiKey, apiKeyEnv: account.apiKeyEnv, log: log.child(account.name), breakers: deadlines.apiBreakers, ...options.client });
      let harvest: AccountHarvest | undefined;
      try {
        await client.probe(signal);
        const onPage: FetchAccountOptions['onPage'] = (h, entry, page) => queuePage(loader, spool, runId, h, entry, page, log);
        const fetched: AccountHarvest = (harvest = await fetchAccount({ ...options, signal, queueBreakers, client, account, state, sources, log, spool, onPage }));
        await loader.queue((store) => loadAccount(store, runId, fetched, log), { now: true }).done;
      } catch (e) {
        // stopped (a signal, or the budget) before or while this account was probed: said once, by whoever stopped it
        const stopped = signal.aborted && harvest === undefined;
        errors.push({ account: account.name, source: '*', message: stopped ? 'not read: the sync was stopped first' : errorMessage(e) });
        // a configuration failure is said once: thrown below when nothing else worked, else in the summary's table
        if (isConfigurationFailure(e)) authFailures.push(e);
        else if (!stopped) log.error(`${account.name}: ${errorMessage(e)}`);
      } finally {
        if (harvest) {
          if (harvest.inventory) ranges.push(harvest.inventory.summary);
          if (harvest.balance) ranges.push(harvest.balance.summary);
          ranges.push(...harvest.ranges.map((r) => r.summary));
          errors.push(...harvest.errors);
          warnings.push(...harvest.warnings);
          authFailures.push(...harvest.forbidden);
        }
        counters.requests += client.stats.requests;
        counters.retries += client.stats.retries;
        counters.rateLimited += client.stats.rateLimited;
        counters.bytes += client.stats.bytes;
        await client.close();
      }
    }
  } finally {
    deadlines.dispose();
    // the final, publishing session below must not wait for a lingering one
    await loader.close();
    spool.remove();
  }
  options.progress?.done();

  const ended = deadlines.ended();
  if (ended) warnings.push(ended);
  // a deadline makes a run incomplete, not wrong: partial (exit 3), and the next sync reads the rest
  const rolledUp = rollUpStatus(ranges, errors);
  const status = ended && rolledUp === 'failed' ? 'partial' : rolledUp;
  const records = ranges.reduce((s, r) => s + r.records, 0);
  await sessions.write((store) => finishRun(store, runId, status, counters, errors, { ranges, warnings }));
  const result: SyncResult = { runId, status, ranges, errors, warnings, ...counters, records };
  // a key that may not read what it must, or a URL that is not the platform, is a configuration problem (exit 2)
  const billingOk = ranges.some((r) => r.source !== 'inventory' && r.source !== 'balance' && (r.status === 'ok' || r.status === 'skipped'));
  if (authFailures.length > 0 && !billingOk) throw authFailures[0];
  return result;
}
