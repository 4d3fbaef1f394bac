// rpt_runway at the edges (issue 18 §7): zero spend is a balance that does not run out, not one that ran out; a
// balance at or below $0 has already run out. The runway alert follows the figure.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateRunway } from '../../src/alert/rules/runway.ts';
import type { Store } from '../../src/store/database.ts';
import { billPods, days, viewStore } from '../helpers/view-store.ts';

const RULE = { warningHours: 72, criticalHours: 24, spendLimitPct: 90, listResources: 10 } as const;

async function observe(store: Store, balance: string, spendPerHour: string): Promise<void> {
  await store.run(
    `insert into raw_balance_observations values ('acme', timestamptz '2026-10-20 06:00:00+00', $1::decimal(18,6), $2::decimal(18,6),
       10, false, null, 'test', [], 'load-1', now())`,
    [balance, spendPerHour],
  );
  await store.run(`set variable gpuledger_as_of = '2026-10-20T06:30:00Z'`);
}

describe('rpt_runway at the edges', () => {
  let store: Store;
  beforeEach(async () => {
    store = await viewStore();
    await billPods(store, days('2026-10-10', 10).map((start) => ({ pod: 'pod-1', start, gpu: '0' , disk: '0.24' })));
  });
  afterEach(async () => store.close());

  it('says a balance at $0 per hour does not run out: no runway hours, no time, a note – and no runway alert', async () => {
    await observe(store, '1000.000000', '0.000000');
    const row = await store.one<Record<string, unknown>>('select runway_hours, runs_out_at, runway_note, estimated from rpt_runway');
    expect(row).toEqual({ runway_hours: null, runs_out_at: null, runway_note: 'does not run out: the current spend is $0 per hour', estimated: false });
    expect((await evaluateRunway(store, RULE as never)).filter((c) => c.rule === 'runway')).toEqual([]);
  });

  it('says a balance below $0 has already run out, and alerts critically', async () => {
    await observe(store, '-5.000000', '1.500000');
    const row = await store.one<Record<string, unknown>>('select runway_hours::varchar as h, runway_note from rpt_runway');
    expect(row).toEqual({ h: '0.00', runway_note: 'already out: the balance is not above $0' });
    const runway = (await evaluateRunway(store, RULE as never)).find((c) => c.key === 'runway:acme')!;
    expect(runway.severity).toBe('critical');
    expect(runway.title).toBe('Runway: acme has run out of credit (balance -$5.00)');
  });

  it('words the spend limit and the runway in the units the report shows them in (47.5 %, not 0.475; $/h; hours)', async () => {
    await observe(store, '100.000000', '9.500000');
    const [limit] = (await evaluateRunway(store, RULE as never)).filter((c) => c.key === 'runway:spend-limit:acme');
    expect(limit!.title).toBe('Spend limit: acme spends $9.50/h, 95.0 % of its $10.00/h limit');
    expect(limit!.message).toContain('current spend $9.50/h is 95.0 % of the hourly spend limit $10.00/h;');
    const [runway] = (await evaluateRunway(store, RULE as never)).filter((c) => c.key === 'runway:acme');
    expect(runway!.message).toContain('at the current $9.50/h (runway 10.5 h, under the 24 h threshold)');
  });

  it('divides a positive balance by a positive spend, as before', async () => {
    await observe(store, '100.000000', '4.000000');
    expect(await store.one('select runway_hours::varchar as h, runway_note from rpt_runway')).toEqual({ h: '25.00', runway_note: null });
  });
});
