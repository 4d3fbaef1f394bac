// One account's part of a sync: its own client (and so its own key's governor and quota), the network half
// (fetch-account.ts), and its loads queued on the run's shared writer. It never throws: whatever happens to this
// account is its outcome, so one account's failure never stops another's (sync.ts runs several side by side).
import { ApiAuthError, ApiClient, ApiForbiddenError } from '../api/index.ts';
import { errorMessage, EXIT, isGpuledgerError } from '../util/errors.ts';
import type { ResolvedAccount } from './accounts.ts';
import { fetchAccount, type AccountHarvest, type FetchAccountOptions } from './fetch-account.ts';
import { loadAccount, queuePage } from './load-account.ts';
import type { PageLoader } from './page-loader.ts';
import type { RangeSummary } from './range-summary.ts';
import type { RunDeadlines } from './run-deadlines.ts';
import type { Spool } from './spool.ts';
import type { SyncOptions, SyncResult } from './sync-options.ts';
import type { SyncState } from './sync-state.ts';
import type { Source } from '../config/sync.ts';

/** What every account of one run shares: the run, the writer, the spool and the deadlines. */
export interface SharedRun {
  options: SyncOptions;
  runId: string;
  state: SyncState;
  sources: readonly Source[];
  loader: PageLoader;
  spool: Spool;
  deadlines: RunDeadlines;
}

export interface AccountOutcome {
  ranges: RangeSummary[];
  errors: SyncResult['errors'];
  warnings: string[];
  /** Rejected keys, forbidden routes, URLs that are not the platform: configuration to fix. */
  configurationFailures: unknown[];
  stats: { requests: number; retries: number; rateLimited: number; bytes: number };
}

/** A rejected key, a forbidden route, a URL that is not the platform: configuration to fix (exit 2), not an outage. */
function isConfigurationFailure(e: unknown): boolean {
  return e instanceof ApiAuthError || e instanceof ApiForbiddenError || (isGpuledgerError(e) && e.exitCode === EXIT.usage);
}

export async function syncAccount(run: SharedRun, account: ResolvedAccount): Promise<AccountOutcome> {
  const { options, loader, spool, runId } = run;
  const { signal, queueBreakers, apiBreakers } = run.deadlines;
  const log = options.log;
  const outcome: AccountOutcome = { ranges: [], errors: [], warnings: [], configurationFailures: [], stats: { requests: 0, retries: 0, rateLimited: 0, bytes: 0 } };
  // not read at all (resolveAccounts said why): one line, no request, and the other accounts go on
  if (account.notRead) {
    const { status, message } = account.notRead;
    if (status === 'failed') {
      outcome.errors.push({ account: account.name, source: '*', message });
      log.error(message);
    } else {
      outcome.warnings.push(message);
      log.warn(message);
    }
    options.progress?.finish?.(account.name);
    return outcome;
  }
  const client = new ApiClient({ baseUrl: account.apiUrl, apiKey: account.apiKey, apiKeyEnv: account.apiKeyEnv, log: log.child(account.name), breakers: apiBreakers, ...options.client });
  let harvest: AccountHarvest | undefined;
  try {
    await client.probe(signal);
    const onPage: FetchAccountOptions['onPage'] = (h, entry, page) => queuePage(loader, spool, runId, h, entry, page, log);
    const fetched: AccountHarvest = (harvest = await fetchAccount({ ...options, signal, queueBreakers, client, account, state: run.state, sources: run.sources, log, spool, onPage }));
    await loader.queue((store) => loadAccount(store, runId, fetched, log), { now: true }).done;
  } catch (e) {
    // stopped (a signal, or the budget) before or while this account was probed: said once, by whoever stopped it
    const stopped = signal.aborted && harvest === undefined;
    outcome.errors.push({ account: account.name, source: '*', message: stopped ? 'not read: the sync was stopped first' : errorMessage(e) });
    // a configuration failure is said once: thrown by sync.ts when nothing else worked, else in the summary's table
    if (isConfigurationFailure(e)) outcome.configurationFailures.push(e);
    else if (!stopped) log.error(`${account.name}: ${errorMessage(e)}`);
  } finally {
    if (harvest) {
      if (harvest.inventory) outcome.ranges.push(harvest.inventory.summary);
      if (harvest.balance) outcome.ranges.push(harvest.balance.summary);
      outcome.ranges.push(...harvest.ranges.map((r) => r.summary));
      outcome.errors.push(...harvest.errors);
      outcome.warnings.push(...harvest.warnings);
      outcome.configurationFailures.push(...harvest.forbidden);
    }
    outcome.stats = { ...client.stats };
    await client.close().catch(() => undefined);
    options.progress?.finish?.(account.name);
  }
  return outcome;
}
