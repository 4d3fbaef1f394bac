import { describe, expect, it } from 'vitest';
import { addInventory, billPods, viewStoreEachTest } from '../helpers/view-store.ts';

describe('cost_daily', () => {
  const store = viewStoreEachTest();

  it('takes day buckets where extracted and rolls hours up elsewhere, never counting a day twice', async () => {
    await addInventory(store, [{ kind: 'pod', id: 'p1', doc: { name: 'svc', status: 'RUNNING' } }]);
    await billPods(store, [
      // 2026-10-01 was extracted at both sizes: the day bucket wins
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '24.000000', disk: '0.480000' },
      { pod: 'p1', size: 'hour', start: '2026-10-01T00:00:00Z', gpu: '1.000000', disk: '0.020000' },
      { pod: 'p1', size: 'hour', start: '2026-10-01T01:00:00Z', gpu: '1.000000', disk: '0.020000' },
      // 2026-10-02 only hourly: rolled up
      { pod: 'p1', size: 'hour', start: '2026-10-02T00:00:00Z', gpu: '1.000000', disk: '0.020000' },
      { pod: 'p1', size: 'hour', start: '2026-10-02T23:00:00Z', gpu: '1.500000', disk: '0.020000' },
      // week buckets never reach cost_daily
      { pod: 'p1', size: 'week', start: '2026-09-28T00:00:00Z', gpu: '99.000000' },
    ]);
    const rows = await store.all(`select day::varchar as day, component, resource_name, amount from cost_daily order by day, component`);
    expect(rows).toEqual([
      { day: '2026-10-01', component: 'disk', resource_name: 'svc', amount: '0.480000' },
      { day: '2026-10-01', component: 'gpu', resource_name: 'svc', amount: '24.000000' },
      { day: '2026-10-02', component: 'disk', resource_name: 'svc', amount: '0.040000' },
      { day: '2026-10-02', component: 'gpu', resource_name: 'svc', amount: '2.500000' },
    ]);
  });

  it('decides the bucket size per account and family, so one account’s day buckets do not hide another’s hours', async () => {
    await billPods(store, [
      { account: 'a', pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '10.000000' },
      { account: 'b', pod: 'p2', size: 'hour', start: '2026-10-01T05:00:00Z', gpu: '2.000000' },
    ]);
    const rows = await store.all(`select account, sum(amount) as amount from cost_daily group by 1 order by 1`);
    expect(rows).toEqual([
      { account: 'a', amount: '10.000000' },
      { account: 'b', amount: '2.000000' },
    ]);
  });

  it('puts a bucket on its UTC day whatever the session time zone', async () => {
    await billPods(store, [{ pod: 'p1', size: 'hour', start: '2026-10-01T23:00:00Z', gpu: '1.000000' }]);
    await store.run(`set TimeZone = 'America/New_York'`);
    expect(await store.all(`select day::varchar as day from cost_daily`)).toEqual([{ day: '2026-10-01' }]);
  });
});
