// The database half of a sync for one account. Billing pages are loaded as they arrive (queuePage, through the
// lingering writer of page-loader.ts), each its own transaction with its watermark, so a kill part-way keeps what was
// committed and the next sync reads the rest again. loadAccount then records the account, loads the inventory and
// reads back where each range's watermark stands.
import type { Store } from '../store/database.ts';
import { errorMessage } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { withoutCredentials } from '../util/url-credentials.ts';
import type { ResolvedAccount } from './accounts.ts';
import { BILLING_SOURCE_DEFS } from '../model/index.ts';
import { loadQueueHealth } from '../metrics/load-queue-health.ts';
import { loadBalance } from './balance.ts';
import type { AccountHarvest, HarvestedRange } from './fetch-account.ts';
import type { FetchedPage } from './fetch-range.ts';
import { loadInventory } from './inventory.ts';
import { loadBillingPage } from './load-billing.ts';
import type { PageLoader } from './page-loader.ts';
import type { Spool } from './spool.ts';
import { readWatermark } from './watermarks.ts';

// the account row is public (dim_account, rpt_accounts, the SQL page, every report): its URL never has credentials,
// whoever built the account. billing is the config's word as of this sync: the runway views read it from here
// (int_runway_billing_model), so a report or alert needs no config to tell a post-paid account
async function upsertAccount(store: Store, account: ResolvedAccount): Promise<void> {
  await store.run(
    `insert into _meta_accounts as a (account, api_url, simulated, first_sync_at, last_sync_at, billing)
     values ($name, $url, $simulated, now(), now(), $billing)
     on conflict (account) do update set api_url = excluded.api_url, simulated = excluded.simulated, last_sync_at = now(), billing = excluded.billing`,
    { name: account.name, url: withoutCredentials(account.apiUrl), simulated: account.simulated, billing: account.billing ?? 'auto' },
  );
}

const DEFS = Object.values(BILLING_SOURCE_DEFS);

/**
 * Queue one spooled page's load. A page that fails marks its range failed; the range's later pages are then not
 * loaded (a gap behind a moved watermark would never be read again) and its fetch stops.
 */
export async function queuePage(
  loader: PageLoader,
  spool: Spool,
  runId: string,
  harvest: AccountHarvest,
  entry: HarvestedRange,
  { range, page, serverNow, lastOfRange }: FetchedPage,
  log: Logger,
): Promise<boolean> {
  const { account } = harvest;
  const { summary } = entry;
  if (entry.loadFailed) {
    spool.release(page.file);
    return false;
  }
  const { queued, done } = loader.queue(async (store) => {
    if (entry.loadFailed) return;
    try {
      const result = await loadBillingPage(
        { store, runId, account: account.name, def: BILLING_SOURCE_DEFS[range.source], bucketSize: range.bucketSize, serverNow, completeThrough: range.completeThrough, lastOfRange },
        page,
        DEFS,
      );
      summary.records += result.records;
      summary.amountMicros += result.totalMicros;
      summary.restated += result.restated;
      for (const w of result.warnings) log.warn(w);
      harvest.warnings.push(...result.warnings);
    } catch (e) {
      entry.loadFailed = true;
      summary.status = 'failed';
      summary.error = errorMessage(e);
      harvest.errors.push({ account: account.name, source: `${range.source} ${range.bucketSize}`, message: summary.error });
      log.error(`${account.name} ${range.source} ${range.bucketSize}: ${summary.error}`);
    } finally {
      spool.release(page.file);
    }
  }, { records: page.recordCount });
  done.catch((e: unknown) => {
    // the writing session itself could not open: the page stays unloaded and its range failed
    entry.loadFailed = true;
    summary.status = 'failed';
    summary.error = errorMessage(e);
    harvest.errors.push({ account: account.name, source: `${range.source} ${range.bucketSize}`, message: summary.error });
    spool.release(page.file);
  });
  await queued;
  return !entry.loadFailed;
}

export async function loadAccount(store: Store, runId: string, harvest: AccountHarvest, log: Logger): Promise<void> {
  const { account } = harvest;
  await upsertAccount(store, account);
  if (harvest.inventory) {
    const { read, readAt, summary } = harvest.inventory;
    const loaded = await loadInventory(store, runId, account.name, readAt, read);
    harvest.warnings.push(...loaded.warnings);
    if (loaded.failed.length > 0) {
      summary.status = 'failed';
      summary.error = loaded.failed.map((f) => `${f.kind}: ${errorMessage(f.error)}`).join('; ');
      harvest.errors.push({ account: account.name, source: 'inventory', message: summary.error });
    }
  }
  await loadQueueHealth(store, runId, account.name, harvest.health);
  if (harvest.balance) await loadBalance(store, runId, harvest.balance);
  for (const { summary } of harvest.ranges) {
    // a failed source completed nothing in this run: an earlier run's date beside "failed" would read as this one's
    if (summary.status === 'failed') {
      summary.completeThrough = null;
      continue;
    }
    const wm = await readWatermark(store, account.name, summary.source, summary.bucketSize);
    summary.completeThrough = wm?.completeThrough?.toISOString() ?? null;
  }
}
