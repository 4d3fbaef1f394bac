// The database half of a sync for one account: everything fetch-account.ts read, loaded in one short writing
// session. Each page is still its own transaction with its watermark, so a kill part-way keeps what was committed
// and the next sync reads the rest again.
import type { Store } from '../store/database.ts';
import { errorMessage } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import type { ResolvedAccount } from './accounts.ts';
import { loadBalance } from './balance.ts';
import { BILLING_SOURCE_DEFS } from './billing-sources/index.ts';
import type { AccountHarvest } from './fetch-account.ts';
import { loadQueueHealth } from '../metrics/load-queue-health.ts';
import { loadInventory } from './inventory.ts';
import { loadBillingPage } from './load-billing.ts';
import { readWatermark } from './watermarks.ts';

async function upsertAccount(store: Store, account: ResolvedAccount): Promise<void> {
  await store.run(
    `insert into _meta_accounts as a values ($name, $url, $simulated, now(), now())
     on conflict (account) do update set api_url = excluded.api_url, simulated = excluded.simulated, last_sync_at = now()`,
    { name: account.name, url: account.apiUrl, simulated: account.simulated },
  );
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
  const defs = Object.values(BILLING_SOURCE_DEFS);
  for (const { summary, range, fetched } of harvest.ranges) {
    if (!range || !fetched) {
      const wm = await readWatermark(store, account.name, summary.source, summary.bucketSize);
      summary.completeThrough = wm?.completeThrough?.toISOString() ?? null;
      continue;
    }
    try {
      for (const { page, serverNow, lastOfRange } of fetched.pages) {
        const result = await loadBillingPage(
          { store, runId, account: account.name, def: BILLING_SOURCE_DEFS[range.source], bucketSize: range.bucketSize, serverNow, completeThrough: range.completeThrough, lastOfRange },
          page,
          defs,
        );
        summary.records += result.records;
        summary.amountMicros += result.totalMicros;
        summary.restated += result.restated;
      }
    } catch (e) {
      summary.status = 'failed';
      summary.error = errorMessage(e);
      harvest.errors.push({ account: account.name, source: `${range.source} ${range.bucketSize}`, message: summary.error });
      log.error(`${account.name} ${range.source} ${range.bucketSize}: ${summary.error}`);
    } finally {
      const wm = await readWatermark(store, account.name, range.source, range.bucketSize);
      summary.completeThrough = wm?.completeThrough?.toISOString() ?? null;
    }
  }
}
