// The balance source: one cheap read of the prepaid balance per account and sync (balance-and-queue.md §1), kept as
// history because the platform keeps none. The network half reads it with the database untouched; the load half
// stores the observation and the top-ups not seen before (a top-up listed again with another amount is a restatement,
// logged and replacing the old version), in one transaction. A balance that cannot be read makes
// the sync partial with a warning – runway views then estimate from the last known balance.
import { randomUUID } from 'node:crypto';
import { ApiAuthError, type ApiClient, type BalanceReading } from '../api/index.ts';
import type { Store } from '../store/database.ts';
import { decimalStringToMicros } from '../util/decimal.ts';
import { errorMessage } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import type { RangeSummary } from './range-summary.ts';

export interface BalanceHarvest {
  reading?: BalanceReading;
  /** The platform's clock when the answer came. */
  observedAt: Date;
  source: string;
  summary: RangeSummary;
}

/** Reads the balance into harvest.balance; a failure is a warning and a failed `balance` row, never thrown (but a rejected key). */
export async function fetchBalance(client: ApiClient, harvest: { account: { name: string }; balance?: BalanceHarvest; warnings: string[] }, log: Logger): Promise<void> {
  const account = harvest.account.name;
  const summary: RangeSummary = { account, source: 'balance', bucketSize: '', requests: 0, records: 0, amountMicros: 0n, restated: 0, status: 'ok' };
  const before = client.stats.requests;
  const read: BalanceHarvest = { observedAt: new Date(), source: 'GraphQL myself', summary };
  harvest.balance = read;
  try {
    read.reading = await client.balance();
    read.observedAt = client.serverTime() ?? new Date();
    summary.records = 1;
    if (read.reading.missing.length > 0) log.debug(`balance: the platform does not know ${read.reading.missing.join(', ')}; read without`);
  } catch (e) {
    if (e instanceof ApiAuthError) throw e; // the key is rejected: nothing else of this account can work
    summary.status = 'failed';
    summary.error = `${errorMessage(e)}; runway is estimated from the last known balance`;
    harvest.warnings.push(`${account} balance: ${summary.error}`);
    log.warn(`${account} balance: ${summary.error}`);
  }
  summary.requests = client.stats.requests - before;
}

type TopUpRow = { account: string; load: string; completed: string; amount: string; type: string; medium: string | null };

/**
 * One listed top-up into raw_balance_top_ups, known by its completion time, type and medium (016_balance_top_up_identity
 * .sql). Read again unchanged, it is left alone; listed with another amount, it is a restatement – logged as billing
 * restatements are (load-billing.ts) and stored in place of the old version. A version stored without its medium
 * (before the platform or gpuledger knew it) is the same top-up.
 */
async function storeTopUp(store: Store, t: TopUpRow): Promise<'new' | 'same' | 'restated'> {
  const same = `account = $account and completed_at = $completed::timestamptz and type = $type
                and (medium is null or $medium::varchar is null or medium = $medium::varchar)`;
  const key = { account: t.account, completed: t.completed, type: t.type, medium: t.medium };
  const stored = await store.all<{ amount: string; medium: string | null }>(
    `select amount::varchar as amount, medium from raw_balance_top_ups where ${same} order by _extracted_at desc, _load_id desc`,
    key,
  );
  // listed without a medium where several media are stored for that moment and type: which one it is cannot be told,
  // so the stored ones stay as they are
  if (t.medium === null && new Set(stored.map((r) => r.medium).filter((m) => m !== null)).size > 1) return 'same';
  const latest = stored[0];
  const amountMoved = latest !== undefined && decimalStringToMicros(latest.amount) !== decimalStringToMicros(t.amount);
  if (latest !== undefined && !amountMoved && stored.length === 1 && latest.medium === t.medium) return 'same';
  if (amountMoved) {
    await store.run(
      `insert into _meta_restatements
       values (now(), $load, $account, 'balance-top-ups', '', $completed::timestamptz, $what, 'restatement', $old::decimal(18,6), $amount::decimal(18,6))`,
      { load: t.load, account: t.account, completed: t.completed, what: [t.type, t.medium ?? ''].join(' '), old: latest.amount, amount: t.amount },
    );
  }
  await store.run(`delete from raw_balance_top_ups where ${same}`, key);
  await store.run(
    `insert into raw_balance_top_ups (account, completed_at, amount, type, _load_id, _extracted_at, medium)
     values ($account, $completed::timestamptz, $amount::decimal(18,6), $type, $load, now(), $medium::varchar)`,
    { ...key, amount: t.amount, load: t.load },
  );
  return latest === undefined ? 'new' : amountMoved ? 'restated' : 'same';
}

/**
 * Whether a listed top-up is stored exactly as listed – one stored version, same completion time (to the microsecond),
 * type, medium and amount: storeTopUp would leave it alone. Anything else goes through storeTopUp.
 */
async function storedUnchanged(store: Store, account: string): Promise<(t: { completedAt: string; type: string; medium: string | null; amount: string }) => boolean> {
  const rows = await store.all<{ us: string; type: string; medium: string | null; amount: string }>(
    `select epoch_us(completed_at)::varchar as us, type, medium, amount::varchar as amount from raw_balance_top_ups where account = $account`,
    { account },
  );
  return (t) => {
    // Date.parse reads milliseconds: a time written finer than that is left to storeTopUp's exact comparison
    if (/\.\d{4,}/.test(t.completedAt)) return false;
    const ms = Date.parse(t.completedAt);
    if (Number.isNaN(ms)) return false;
    const us = String(BigInt(ms) * 1000n);
    const same = rows.filter((r) => r.us === us && r.type === t.type && (r.medium === null || t.medium === null || r.medium === t.medium));
    return same.length === 1 && same[0]!.medium === t.medium && decimalStringToMicros(same[0]!.amount) === decimalStringToMicros(t.amount);
  };
}

export async function loadBalance(store: Store, runId: string, harvest: BalanceHarvest): Promise<void> {
  const { reading, summary } = harvest;
  if (!reading) return;
  const loadId = randomUUID();
  const p = { account: summary.account, at: harvest.observedAt.toISOString(), load: loadId };
  await store.transaction(async () => {
    await store.run(
      `insert into raw_balance_observations values ($account, $at::timestamptz, $balance::decimal(18,6), $spend::decimal(18,6),
         $limit::decimal(18,6), $under, $min::decimal(18,6), $source,
         case when $missing = '' then []::varchar[] else string_split($missing, ',') end, $load, now())`,
      {
        ...p,
        balance: reading.balance,
        spend: reading.spendPerHour,
        limit: reading.spendLimit,
        under: reading.underBalance,
        min: reading.minBalance,
        source: harvest.source,
        missing: reading.missing.join(','),
      },
    );
    let added = 0;
    const unchanged = await storedUnchanged(store, p.account);
    for (const t of reading.topUps ?? []) {
      // most of a listing is what the last sync stored: told apart in memory, not by a query per top-up
      if (unchanged(t)) continue;
      const change = await storeTopUp(store, { account: p.account, load: p.load, completed: t.completedAt, amount: t.amount, type: t.type, medium: t.medium });
      if (change === 'new') added++;
      if (change === 'restated') summary.restated++;
    }
    summary.records = 1 + added;
    await store.run(
      `insert into _meta_loads values ($load, $run, $account, 'balance', null, null, $at::timestamptz, $records, null, null, now())`,
      { ...p, run: runId, records: summary.records },
    );
  });
}
