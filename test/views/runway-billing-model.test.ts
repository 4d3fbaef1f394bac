// Prepaid or post-paid (issue 36 §5): int_runway_billing_model reads the config's billing, or decides from the
// observations – the balance at or below $0 at two syncs while pods billed on a day after the first of them. What
// must not be taken for post-paid (a prepaid account at $0 whose storage keeps billing, a top-up between, one sync,
// compute on the same day only) stays prepaid, and keeps its runway alert; a post-paid account gets none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateRunway } from '../../src/alert/rules/runway.ts';
import type { Store } from '../../src/store/database.ts';
import { billPods, billVolumes, days, viewStore } from '../helpers/view-store.ts';

const RULE = { warningHours: 72, criticalHours: 24, spendLimitPct: 90, listResources: 10 } as const;

async function observe(store: Store, at: string, balance: string, load: string): Promise<void> {
  await store.run(
    `insert into raw_balance_observations values ('acme', $1::timestamptz, $2::decimal(18,6), 2.5, 80, false, null, 'test', [], $3, now())`,
    [at, balance, load],
  );
}

/** A top-up long before: a prepaid account has paid in, so its $0 is not money never paid in. */
async function paidIn(store: Store): Promise<void> {
  await store.run(`insert into raw_balance_top_ups values ('acme', timestamptz '2026-10-01 00:00:00+00', 500, 'RELOAD', 'load-0', now(), 'CARD')`);
}

async function account(store: Store, billing: string | null): Promise<void> {
  await store.run(
    `insert into _meta_accounts (account, api_url, simulated, first_sync_at, last_sync_at, billing) values ('acme', 'http://127.0.0.1:8787', false, now(), now(), $1)`,
    [billing],
  );
}

type Model = { billing_model: string; billing_basis: string; billing_evidence: string; zero_syncs: number | string; compute_billed_after: string };
const model = (store: Store) =>
  store.one<Model>('select billing_model, billing_basis, billing_evidence, zero_syncs::integer as zero_syncs, compute_billed_after::varchar as compute_billed_after from int_runway_billing_model');

describe('int_runway_billing_model and the runway of a post-paid account', () => {
  let store: Store;
  beforeEach(async () => {
    store = await viewStore();
    await store.run(`set variable gpuledger_as_of = '2026-10-22T07:00:00Z'`);
  });
  afterEach(async () => store.close());

  it('detects a post-paid account: at or below $0 at two syncs while pods bill on the days after – no runway, no alert', async () => {
    await account(store, 'auto');
    await billPods(store, days('2026-10-15', 8).map((start) => ({ pod: 'pod-1', start, gpu: '48', disk: '0.24' })));
    await observe(store, '2026-10-20T06:00:00Z', '0.000000', 'load-1');
    await observe(store, '2026-10-21T06:00:00Z', '-60.000000', 'load-2');
    await observe(store, '2026-10-22T06:00:00Z', '-108.000000', 'load-3');
    const m = (await model(store))!;
    expect(m).toMatchObject({ billing_model: 'postpaid', billing_basis: 'detected', zero_syncs: 3, compute_billed_after: '96.000000' });
    expect(m.billing_evidence).toBe('post-paid: the balance read $0 or below at 3 syncs since 2026-10-20T06:00:00Z while pods billed $96.00 from 2026-10-21 (a prepaid account stops at $0)');
    const row = await store.one<Record<string, unknown>>(
      'select runway_hours, runs_out_at, storage_runway_hours, runway_hours_at_billed_rate, runway_note, billing_model, month_to_date::varchar as mtd from rpt_runway',
    );
    expect(row).toEqual({
      runway_hours: null,
      runs_out_at: null,
      storage_runway_hours: null,
      runway_hours_at_billed_rate: null,
      runway_note: 'invoiced (post-paid): no runway – the month-to-date spend is the figure to watch',
      billing_model: 'postpaid',
      mtd: String((48.24 * 8).toFixed(6)),
    });
    expect(await evaluateRunway(store, RULE as never)).toEqual([]);
    // nor at any earlier observation
    expect(await store.all('select runway_hours, runs_out_at, billing_model from rpt_runway_history order by observed_at')).toEqual(
      Array(3).fill({ runway_hours: null, runs_out_at: null, billing_model: 'postpaid' }),
    );
    // nor is its balance drawn as credit projected to $0 on the nightly balance chart
    expect(await store.all('select * from rpt_balance_projection')).toEqual([]);
  });

  it('keeps a prepaid account at $0 prepaid when only storage bills after it: its volumes are what $0 deletes', async () => {
    await account(store, null);
    await paidIn(store);
    await billPods(store, days('2026-10-15', 5).map((start) => ({ pod: 'pod-1', start, gpu: '48', disk: '0.24' })));
    await billPods(store, days('2026-10-20', 3).map((start) => ({ pod: 'pod-1', start, disk: '0.24' })));
    await billVolumes(store, days('2026-10-15', 8).map((start) => ({ volume: 'vol-1', start, standard: '0.70' })));
    await observe(store, '2026-10-20T06:00:00Z', '0.000000', 'load-1');
    await observe(store, '2026-10-21T06:00:00Z', '0.000000', 'load-2');
    await observe(store, '2026-10-22T06:00:00Z', '0.000000', 'load-3');
    const m = (await model(store))!;
    expect(m).toMatchObject({ billing_model: 'prepaid', billing_basis: 'assumed', zero_syncs: 3, compute_billed_after: '0.000000' });
    expect(m.billing_evidence).toContain('no pod billed on a later day');
    const runway = (await evaluateRunway(store, RULE as never)).find((c) => c.key === 'runway:acme')!;
    expect(runway.severity).toBe('critical');
    expect(runway.message).toContain('The balance reached $0 by 2026-10-22T07:00:00Z: at $0 every running pod stops and pods without a network volume are deleted with their data');
  });

  it('keeps one sync at $0 prepaid, and its critical alert says how an invoiced account is told apart', async () => {
    await account(store, 'auto');
    await paidIn(store);
    await billPods(store, days('2026-10-15', 8).map((start) => ({ pod: 'pod-1', start, gpu: '48' })));
    await observe(store, '2026-10-22T06:00:00Z', '-3.000000', 'load-1');
    expect(await model(store)).toMatchObject({ billing_model: 'prepaid', billing_basis: 'assumed', zero_syncs: 1 });
    const runway = (await evaluateRunway(store, RULE as never)).find((c) => c.key === 'runway:acme')!;
    expect(runway.severity).toBe('critical');
    expect(runway.message).toContain('If acme is invoiced (post-paid), set "billing": "postpaid" on it in the config');
  });

  it('does not count compute on the day of the first $0 reading, nor a run broken by a top-up', async () => {
    await account(store, 'auto');
    await paidIn(store);
    await billPods(store, days('2026-10-15', 8).map((start) => ({ pod: 'pod-1', start, gpu: '48' })));
    // both readings on the 22nd: the pods billed that day may have run before $0
    await observe(store, '2026-10-22T01:00:00Z', '0.000000', 'load-1');
    await observe(store, '2026-10-22T06:00:00Z', '0.000000', 'load-2');
    expect(await model(store)).toMatchObject({ billing_model: 'prepaid', zero_syncs: 2, compute_billed_after: '0.000000' });
    // readings days apart, but a top-up between them: the second $0 is a new run
    await observe(store, '2026-10-19T06:00:00Z', '0.000000', 'load-0');
    await store.run(`insert into raw_balance_top_ups values ('acme', timestamptz '2026-10-21 12:00:00+00', 100, 'RELOAD', 'load-1', now(), 'CARD')`);
    expect(await model(store)).toMatchObject({ billing_model: 'prepaid', zero_syncs: 2, compute_billed_after: '0.000000' });
  });

  it('detects it on the first sync when the top-up history lists no credit ever while pods billed – not when that history is unanswered', async () => {
    await account(store, 'auto');
    await billPods(store, days('2026-10-15', 8).map((start) => ({ pod: 'pod-1', start, gpu: '48' })));
    await observe(store, '2026-10-22T06:00:00Z', '-1050.500000', 'load-1');
    const m = (await model(store))!;
    expect(m).toMatchObject({ billing_model: 'postpaid', billing_basis: 'detected', zero_syncs: 1 });
    expect(m.billing_evidence).toBe('post-paid: the balance reads -$1050.50 and no top-up was ever listed, while pods billed $384.00 (a prepaid account spends only credit paid in)');
    expect(await evaluateRunway(store, RULE as never)).toEqual([]);
    // a platform that did not answer stripeReloadHistory says nothing about top-ups: prepaid, and alerted
    await store.run(`update raw_balance_observations set missing_fields = ['stripeReloadHistory']`);
    expect(await model(store)).toMatchObject({ billing_model: 'prepaid', billing_basis: 'assumed' });
    expect((await evaluateRunway(store, RULE as never)).map((c) => c.key)).toContain('runway:acme');
  });

  it('follows the config: billing postpaid with a positive balance has no runway; billing prepaid keeps it whatever the observations', async () => {
    await account(store, 'postpaid');
    await billPods(store, days('2026-10-15', 8).map((start) => ({ pod: 'pod-1', start, gpu: '48' })));
    await observe(store, '2026-10-22T06:00:00Z', '10.000000', 'load-1');
    expect(await model(store)).toMatchObject({ billing_model: 'postpaid', billing_basis: 'config', billing_evidence: 'the config says billing: postpaid' });
    expect(await evaluateRunway(store, RULE as never)).toEqual([]);

    await store.run(`update _meta_accounts set billing = 'prepaid'`);
    await observe(store, '2026-10-20T06:00:00Z', '0.000000', 'load-2');
    await observe(store, '2026-10-22T06:30:00Z', '-100.000000', 'load-3');
    expect(await model(store)).toMatchObject({ billing_model: 'prepaid', billing_basis: 'config' });
    expect((await evaluateRunway(store, RULE as never)).map((c) => c.key)).toContain('runway:acme');
  });

  it('names the $0 deadline and what is deleted then in a prepaid warning', async () => {
    await account(store, 'auto');
    await billPods(store, days('2026-10-15', 8).map((start) => ({ pod: 'pod-1', start, gpu: '48' })));
    await observe(store, '2026-10-22T06:00:00Z', '100.000000', 'load-1');
    const runway = (await evaluateRunway(store, RULE as never)).find((c) => c.key === 'runway:acme')!;
    expect(runway.severity).toBe('warning');
    expect(runway.title).toBe('Runway: acme has about 40 hours of credit left ($100.00 at $2.50/h); $0 around 2026-10-23T23:00:00Z');
    expect(runway.message).toContain(
      '$0 is the deadline: around 2026-10-23T23:00:00Z every running pod stops and pods without a network volume are deleted with their data – the platform documents no grace period (balance-and-queue.md §2)',
    );
    expect(runway.message).toContain('Top up before 2026-10-23T23:00:00Z, or stop resources.');
  });
});
