// The sync engine. Accounts are read side by side (sync.accountConcurrency at a time), each with its own client and
// so its own key's quota (sync-account.ts). Per account: the network half (fetch-account.ts: inventory, then every
// billing source at each configured bucket size, chunk by chunk) runs with the database untouched; each billing page
// is spooled to a file and loaded through one writer shared by all accounts that batches pages and holds the
// database only while they keep coming (page-loader.ts); the inventory follows in the same writer. So a sync
// throttled to a few requests a minute holds the database for moments per page, not minutes, and readers never wait
// (shared-database.ts). A failing source is recorded and the others go on; a rejected key stops its account only.
// No remote holds the run hostage: requests have deadlines, hosts breakers and the run a budget (run-deadlines.ts).
// The run log says what happened.
import { heldSessions, type WriteSessions } from '../store/shared-database.ts';
import { forEachConcurrently } from '../util/pool.ts';
import { createPageLoader } from './page-loader.ts';
import { startRunDeadlines } from './run-deadlines.ts';
import type { RangeSummary } from './range-summary.ts';
import { closeInterruptedRuns, finishRun, startRun } from './runs.ts';
import { createSpool } from './spool.ts';
import { syncAccount, type AccountOutcome } from './sync-account.ts';
import type { SyncOptions, SyncResult } from './sync-options.ts';
import { readSyncState } from './sync-state.ts';

export type { RangeSummary } from './range-summary.ts';
export type { SyncOptions, SyncResult } from './sync-options.ts';

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

/** What the summary says when the caller stopped the sync (its signal's reason, e.g. 'SIGTERM'); undefined if not. */
function stoppedBy(signal: AbortSignal | undefined): string | undefined {
  if (!signal?.aborted) return undefined;
  const reason = typeof signal.reason === 'string' ? signal.reason : 'a stop request';
  return `the sync was stopped by ${reason} before it finished: what was read is loaded; the next sync reads the rest`;
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
  const spool = createSpool();
  const loader = createPageLoader({ sessions, batchRecords: config.sync.maxRecordsPerRequest });
  const deadlines = startRunDeadlines({ budgetMinutes: config.sync.budgetMinutes, stop: options.signal, log });
  let outcomes: AccountOutcome[] | undefined;
  try {
    const run = { options, runId, state, sources, loader, spool, deadlines };
    outcomes = await forEachConcurrently(options.accounts, config.sync.accountConcurrency, (account) => syncAccount(run, account));
  } finally {
    deadlines.dispose();
    if (!outcomes) {
      await loader.close();
      spool.remove();
    }
  }
  // in the config's order, however the accounts interleaved
  const ranges = outcomes.flatMap((o) => o.ranges);
  const errors = outcomes.flatMap((o) => o.errors);
  const warnings = outcomes.flatMap((o) => o.warnings);
  const authFailures = outcomes.flatMap((o) => o.configurationFailures);
  const counters = { requests: 0, retries: 0, rateLimited: 0, bytes: 0 };
  for (const { stats } of outcomes) for (const k of Object.keys(counters) as Array<keyof typeof counters>) counters[k] += stats[k];
  options.progress?.done();

  const ended = deadlines.ended();
  if (ended) warnings.push(ended);
  const stopped = stoppedBy(options.signal);
  if (stopped) warnings.push(stopped);
  // a deadline makes a run incomplete, not wrong: partial (exit 3), and the next sync reads the rest
  const rolledUp = rollUpStatus(ranges, errors);
  // a stopped sync is never a success, even when every range was read before the signal came: what it did after
  // (queue health, the last loads) was cut short, and a supervisor must not take "stopped" for "done" (issue 26 §7)
  let status = rolledUp;
  if (rolledUp === 'success' && (ended || stopped)) status = 'partial';
  if (rolledUp === 'failed' && ended) status = 'partial';
  const records = ranges.reduce((s, r) => s + r.records, 0);
  // the run's note is the last work of the loader's session (the one still open after the last page, if it lingers),
  // and that session publishes: no session of its own
  try {
    await loader.close((store) => finishRun(store, runId, status, counters, errors, { ranges, warnings }));
  } finally {
    spool.remove();
  }
  const result: SyncResult = { runId, status, ranges, errors, warnings, ...counters, records };
  // a key that may not read what it must, or a URL that is not the platform, is a configuration problem (exit 2)
  const billingOk = ranges.some((r) => r.source !== 'inventory' && r.source !== 'balance' && (r.status === 'ok' || r.status === 'skipped'));
  if (authFailures.length > 0 && !billingOk) throw authFailures[0];
  return result;
}
