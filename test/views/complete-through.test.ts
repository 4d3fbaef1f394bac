// "Complete" has one answer (issue 25 §4): a day is complete when it has ended by as_of and every billing route's
// buckets of it are final – the earliest complete_through of the account's billing watermarks, the figure the
// freshness table shows per source. Daily spend's Complete, the monthly Complete and rpt_complete_through agree.
import { describe, expect, it } from 'vitest';
import { billPods, billServerless, setWatermark, viewStoreForSuite } from '../helpers/view-store.ts';

describe('complete through', () => {
  const store = viewStoreForSuite(async (store) => {
    for (const day of ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26']) {
      await billPods(store, [{ pod: 'p1', start: `${day}T00:00:00Z`, gpu: '10.000000' }]);
      await billServerless(store, [{ endpoint: 'e1', start: `${day}T00:00:00Z`, gpu: '2.000000' }]);
    }
    // pods are final through the 24th, serverless only through the 23rd (its last read restated more); hourly pods
    // are final to the hour – the earliest of them all decides; the inventory bills nothing and does not count
    await setWatermark(store, { source: 'pods', size: 'day', from: '2026-11-01T00:00:00Z', through: '2026-11-26T14:00:00Z', complete: '2026-11-24T00:00:00Z' });
    await setWatermark(store, { source: 'pods', size: 'hour', from: '2026-11-12T00:00:00Z', through: '2026-11-26T14:00:00Z', complete: '2026-11-26T11:00:00Z' });
    await setWatermark(store, { source: 'serverless', size: 'day', from: '2026-11-01T00:00:00Z', through: '2026-11-26T14:00:00Z', complete: '2026-11-23T00:00:00Z' });
    await store.run(`insert into _meta_watermarks values ('acme', 'inventory', '', '2026-11-01', '2026-11-26T14:00:00Z', '2026-11-01', now(), 'run-inv')`);
  });

  it('marks complete only the days that ended and are final on every route, as rpt_complete_through says', async () => {
    const days = await store.all<{ day: string; is_complete: boolean }>(
      `select day::varchar as day, is_complete from rpt_spend_daily_by_family where day >= '2026-11-20' order by day`,
    );
    expect(days).toEqual([
      { day: '2026-11-20', is_complete: true },
      { day: '2026-11-21', is_complete: true },
      { day: '2026-11-22', is_complete: true },
      { day: '2026-11-23', is_complete: false },
      { day: '2026-11-24', is_complete: false },
      { day: '2026-11-25', is_complete: false },
      { day: '2026-11-26', is_complete: false },
    ]);
    expect(await store.all(`select account, complete_through::varchar as complete_through, last_complete_day::varchar as last_complete_day from rpt_complete_through`)).toEqual([
      { account: 'acme', complete_through: '2026-11-23 00:00:00+00', last_complete_day: '2026-11-22' },
    ]);
    const freshness = await store.one<{ v: string }>(`select min(complete_through)::varchar as v from rpt_data_freshness where bucket_size is not null`);
    expect(freshness!.v).toBe('2026-11-23 00:00:00+00');
    const month = await store.all(`select family, is_complete from rpt_spend_monthly where month = '2026-11-01' order by family`);
    expect(month).toEqual([{ family: 'pod', is_complete: false }, { family: 'serverless', is_complete: false }]);
  });

  it('never calls a day final for an account whose billing watermarks say nothing', async () => {
    await billPods(store, [{ account: 'other', pod: 'p9', start: '2026-11-10T00:00:00Z', gpu: '1.000000' }]);
    const rows = await store.all(`select bool_or(is_complete) as any_complete from rpt_spend_daily where account = 'other'`);
    expect(rows).toEqual([{ any_complete: false }]);
  });
});

// issue 38: the finance report evaluates a closed month as of its last second (report-clock.ts); printed, it said
// "Complete = No" for every family and for the 31st of a month whose billing had been final for 30 days
describe('complete through, for a closed month evaluated as of its last second', () => {
  const store = viewStoreForSuite(async (store) => {
    for (const day of ['2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01']) {
      await billPods(store, [{ pod: 'p1', start: `${day}T00:00:00Z`, gpu: '10.000000' }]);
    }
    await setWatermark(store, { source: 'pods', size: 'day', from: '2026-10-01T00:00:00Z', through: '2026-11-30T06:00:00Z', complete: '2026-11-29T00:00:00Z' });
  });
  const asOf = (t: string) => store.run(`set variable gpuledger_as_of = timestamptz '${t}'`);

  it('calls the month and its last day complete once its billing is final', async () => {
    await asOf('2026-10-31T23:59:59Z');
    expect(await store.all(`select day::varchar as day, is_complete from rpt_spend_daily where day >= '2026-10-30' order by day`)).toEqual([
      { day: '2026-10-30', is_complete: true },
      { day: '2026-10-31', is_complete: true },
    ]);
    expect(await store.all(`select family, is_complete from rpt_spend_monthly where month = '2026-10-01'`)).toEqual([{ family: 'pod', is_complete: true }]);
    expect(await store.all(`select last_complete_day::varchar as d from rpt_complete_through`)).toEqual([{ d: '2026-10-31' }]);
  });

  it('keeps the day containing an earlier as_of open, however final its billing', async () => {
    await asOf('2026-10-31T12:00:00Z');
    expect(await store.all(`select day::varchar as day, is_complete from rpt_spend_daily where day >= '2026-10-30' order by day`)).toEqual([
      { day: '2026-10-30', is_complete: true },
      { day: '2026-10-31', is_complete: false },
    ]);
    expect(await store.all(`select family, is_complete from rpt_spend_monthly where month = '2026-10-01'`)).toEqual([{ family: 'pod', is_complete: false }]);
    expect(await store.all(`select last_complete_day::varchar as d from rpt_complete_through`)).toEqual([{ d: '2026-10-30' }]);
  });
});
