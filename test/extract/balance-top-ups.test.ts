// A top-up is known by its completion time, type and medium, never by its amount (issue 25 §2): read again it is
// stored once; listed again with another amount it is a restatement – logged and stored in place of the old one;
// and a store written while the amount was part of the key (two versions of one top-up) shows the latest only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BalanceReading, TopUp } from '../../src/api/index.ts';
import { loadBalance, type BalanceHarvest } from '../../src/extract/balance.ts';
import type { Store } from '../../src/store/database.ts';
import { openMigratedStore } from '../helpers/view-store.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';


let tmp: TempDir;
let store: Store;
beforeAll(async () => {
  tmp = tempDir('gpuledger-top-ups-');
  store = await openMigratedStore(tmp.db); // the worker's migrated template, copied
});
afterAll(async () => {
  await store?.close();
  tmp?.cleanup();
});
beforeEach(async () => {
  for (const t of ['raw_balance_top_ups', 'raw_balance_observations', '_meta_restatements', '_meta_loads']) await store.run(`delete from ${t}`);
});

const NOV_10: TopUp = { amount: '7448.470000', completedAt: '2026-11-10T00:00:00Z', type: 'RELOAD', medium: 'CARD' };
const OCT_01: TopUp = { amount: '2500.000000', completedAt: '2026-10-01T00:00:00Z', type: 'RELOAD', medium: 'CARD' };

function harvest(topUps: TopUp[]): BalanceHarvest {
  const reading: BalanceReading = { balance: '100.000000', spendPerHour: '1.000000', spendLimit: '80.000000', underBalance: false, minBalance: '1.000000', topUps, missing: [] };
  return { reading, observedAt: new Date('2026-11-20T12:00:00Z'), source: 'GraphQL myself', summary: { account: 'demo', source: 'balance', bucketSize: '', requests: 1, records: 1, amountMicros: 0n, restated: 0, status: 'ok' } };
}

const topUps = () =>
  store.all<{ completed_at: string; top_up_type: string; top_up_medium: string | null; amount: string }>(
    `select strftime(completed_at at time zone 'UTC', '%Y-%m-%d') as completed_at, top_up_type, top_up_medium, amount::varchar as amount
     from stg_balance_top_ups order by completed_at`,
  );

describe('balance top-ups in the store', () => {
  it('stores a top-up read again once', async () => {
    await loadBalance(store, 'run-1', harvest([NOV_10, OCT_01]));
    const again = harvest([NOV_10, OCT_01]);
    await loadBalance(store, 'run-2', again);
    expect(again.summary.records).toBe(1);
    expect(again.summary.restated).toBe(0);
    expect(await topUps()).toEqual([
      { completed_at: '2026-10-01', top_up_type: 'RELOAD', top_up_medium: 'CARD', amount: '2500.000000' },
      { completed_at: '2026-11-10', top_up_type: 'RELOAD', top_up_medium: 'CARD', amount: '7448.470000' },
    ]);
  });

  it('keeps a top-up half a millisecond after a stored one apart from it, same type, medium and amount', async () => {
    await loadBalance(store, 'run-1', harvest([NOV_10]));
    const later = { ...NOV_10, completedAt: '2026-11-10T00:00:00.000500Z' };
    const again = harvest([NOV_10, later]);
    await loadBalance(store, 'run-2', again);
    expect(again.summary.records).toBe(2);
    expect(await store.all(`select epoch_us(completed_at)::varchar us from raw_balance_top_ups order by 1`)).toEqual([
      { us: String(Date.parse(NOV_10.completedAt) * 1000) },
      { us: String(Date.parse(NOV_10.completedAt) * 1000 + 500) },
    ]);
  });

  it('takes a changed amount as a restatement: logged, and the new amount replaces the old', async () => {
    await loadBalance(store, 'run-1', harvest([NOV_10]));
    const restated = harvest([{ ...NOV_10, amount: '7448.080000' }]);
    await loadBalance(store, 'run-2', restated);
    expect(restated.summary.restated).toBe(1);
    expect(await topUps()).toEqual([{ completed_at: '2026-11-10', top_up_type: 'RELOAD', top_up_medium: 'CARD', amount: '7448.080000' }]);
    expect(await store.all(`select source, resource_id, kind, old_amount::varchar as old, new_amount::varchar as new from _meta_restatements`)).toEqual([
      { source: 'balance-top-ups', resource_id: 'RELOAD CARD', kind: 'restatement', old: '7448.470000', new: '7448.080000' },
    ]);
    expect((await store.one<{ n: string }>(`select count(*) as n from raw_balance_top_ups`))!.n).toBe('1');
  });

  it('keeps another top-up of the same moment with another type or medium apart', async () => {
    await loadBalance(store, 'run-1', harvest([NOV_10, { ...NOV_10, type: 'CREDIT', amount: '50.000000' }, { ...NOV_10, medium: 'CRYPTO', amount: '10.000000' }]));
    expect((await topUps()).map((t) => [t.top_up_type, t.top_up_medium, t.amount]).sort()).toEqual([
      ['CREDIT', 'CARD', '50.000000'],
      ['RELOAD', 'CARD', '7448.470000'],
      ['RELOAD', 'CRYPTO', '10.000000'],
    ]);
  });

  it('leaves two top-ups of one moment paid with different media alone when a later listing gives no medium', async () => {
    await loadBalance(store, 'run-1', harvest([NOV_10, { ...NOV_10, medium: 'CRYPTO', amount: '10.000000' }]));
    await loadBalance(store, 'run-2', harvest([{ ...NOV_10, medium: null }]));
    expect((await topUps()).map((t) => [t.top_up_medium, t.amount]).sort()).toEqual([['CARD', '7448.470000'], ['CRYPTO', '10.000000']]);
  });

  it('shows the latest of two versions a store kept while the amount was part of the key, and merges them on the next read', async () => {
    // as a pre-016 store holds them: no medium, one row per amount, from two loads
    await store.run(`insert into raw_balance_top_ups (account, completed_at, amount, type, _load_id, _extracted_at)
                     values ('demo', '2026-11-10T00:00:00Z', 7448.47, 'RELOAD', 'load-a', '2026-11-20T00:00:00Z'),
                            ('demo', '2026-11-10T00:00:00Z', 7448.08, 'RELOAD', 'load-b', '2026-11-21T00:00:00Z')`);
    expect(await topUps()).toEqual([{ completed_at: '2026-11-10', top_up_type: 'RELOAD', top_up_medium: null, amount: '7448.080000' }]);
    await loadBalance(store, 'run-3', harvest([{ ...NOV_10, amount: '7448.080000' }]));
    expect(await topUps()).toEqual([{ completed_at: '2026-11-10', top_up_type: 'RELOAD', top_up_medium: 'CARD', amount: '7448.080000' }]);
    expect((await store.one<{ n: string }>(`select count(*) as n from raw_balance_top_ups`))!.n).toBe('1');
  });
});
