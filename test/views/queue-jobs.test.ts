// int_queue_jobs_daily and rpt_unit_cost on given rows: counter deltas with resets, split over the UTC days an
// interval spans in whole jobs that add up exactly; unit_cost null when the quantity is 0.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/database.ts';
import { billServerless, viewStoreForSuite } from '../helpers/view-store.ts';

async function sample(store: Store, at: string, completed: number, failed = 0, name = 'sdxl') {
  await store.run(
    `insert into raw_queue_health values ('acme', 'ep1', $name, $at::timestamptz, $completed, $failed, 0, 0, 0, '{"idle":1,"unhealthy":0}'::json, 'test', now())`,
    { at, completed, failed, name },
  );
}

describe('jobs from queue samples', () => {
  const store = viewStoreForSuite(async (store) => {
    await sample(store, '2026-11-01T18:00:00Z', 100, 5);
    // 100 jobs over 54 h: 6 h on the 1st, 24 on the 2nd, 24 on the 3rd
    await sample(store, '2026-11-04T00:00:00Z', 200, 7);
    // reset: 3 jobs since, on the 4th; failed went 7 → 1 as well
    await sample(store, '2026-11-04T06:00:00Z', 3, 1, 'sdxl-renamed');
  });

  it('splits each interval over its days by time in whole jobs that add up, and counts a drop as a reset', async () => {
    const rows = await store.all<{ day: string; metric: string; scope: string; value: string }>(
      `select day::varchar as day, metric, scope, value::varchar as value from int_queue_jobs_daily order by metric, day`,
    );
    expect(rows).toEqual([
      { day: '2026-11-01', metric: 'jobs_completed', scope: 'endpoint:sdxl', value: '11.000000' },
      { day: '2026-11-02', metric: 'jobs_completed', scope: 'endpoint:sdxl', value: '44.000000' },
      { day: '2026-11-03', metric: 'jobs_completed', scope: 'endpoint:sdxl', value: '45.000000' },
      { day: '2026-11-04', metric: 'jobs_completed', scope: 'endpoint:sdxl-renamed', value: '3.000000' },
      { day: '2026-11-01', metric: 'jobs_failed', scope: 'endpoint:sdxl', value: '0.000000' },
      { day: '2026-11-02', metric: 'jobs_failed', scope: 'endpoint:sdxl', value: '1.000000' },
      { day: '2026-11-03', metric: 'jobs_failed', scope: 'endpoint:sdxl', value: '1.000000' },
      { day: '2026-11-04', metric: 'jobs_failed', scope: 'endpoint:sdxl-renamed', value: '1.000000' },
    ]);
    // cumulative floors: 100·6/54 → 11, 100·30/54 → 55 (44 more), 100 (45 more): the interval's 100 exactly
  });

  it('divides the scope\'s cost by the quantity, null when the quantity is 0 or the day has no billing at all', async () => {
    await billServerless(store, [
      { account: 'acme', start: '2026-11-02T00:00:00Z', endpoint: 'ep1', gpu: '0.7' },
      { account: 'acme', start: '2026-11-03T00:00:00Z', endpoint: 'ep1', gpu: '1.5' },
    ]);
    await store.run(
      `insert into raw_metrics values
         ('acme', '2026-11-02', 'requests', 'endpoint:ep1', 0, 't.csv', 2, 'test', now()),
         ('acme', '2026-11-03', 'requests', 'endpoint:ep1', 3, 't.csv', 3, 'test', now()),
         ('acme', '2026-11-05', 'requests', 'endpoint:ep1', 2, 't.csv', 4, 'test', now())`,
    );
    const rows = await store.all<{ day: string; cost: string | null; unit_cost: string | null; estimated: boolean }>(
      `select day::varchar as day, cost::varchar as cost, unit_cost::varchar as unit_cost, estimated from rpt_unit_cost
       where metric = 'requests' order by day`,
    );
    expect(rows.map((r) => [r.day, r.cost, r.unit_cost, r.estimated])).toEqual([
      ['2026-11-02', '0.700000', null, false],
      ['2026-11-03', '1.500000', '0.500000000', false],
      ['2026-11-05', null, null, false],
    ]);
    const week = await store.all<{ day: string; cost: string | null; quantity: string; unit_cost: string | null }>(
      `select day::varchar as day, cost::varchar as cost, quantity::varchar as quantity, unit_cost::varchar as unit_cost
       from rpt_unit_cost_7d where metric = 'requests' order by day`,
    );
    expect(week.map((r) => [r.day, r.cost, r.quantity, r.unit_cost])).toEqual([
      ['2026-11-02', '0.700000', '0.000000', null],
      ['2026-11-03', '2.200000', '3.000000', '0.733333333'],
      // a day of the week without a known cost makes the week's cost unknown
      ['2026-11-05', null, '5.000000', null],
    ]);
  });
});
