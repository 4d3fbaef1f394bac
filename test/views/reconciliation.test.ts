import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/database.ts';
import { billAggregate, billClusters, billPods, billPublicEndpoints, billServerless, billVolumes, setWatermark, viewStoreEachTest } from '../helpers/view-store.ts';

const DAY1 = '2026-10-01T00:00:00Z';
const DAY2 = '2026-10-02T00:00:00Z';

async function givenConsistentRoutes(store: Store): Promise<void> {
  for (const day of [DAY1, DAY2]) {
    await billPods(store, [
      { pod: 'p1', start: day, gpu: '10.000000', cpu: '0', disk: '0.500000' },
      { pod: 'p2', start: day, cpu: '0.960000', disk: '0.100000' },
    ]);
    await billServerless(store, [{ endpoint: 'e1', start: day, gpu: '5.000000', disk: '0.010000', fee: '0.020000' }]);
    await billVolumes(store, [{ volume: 'v1', start: day, standard: '1.000000', highPerformance: '0.250000' }]);
    await billPublicEndpoints(store, [{ start: day, amount: '0.300000' }]);
    await billAggregate(store, [
      { start: day, pod: ['10.000000', '0.960000', '0.600000'], serverless: ['5.000000', '0', '0.010000', '0.020000'], storage: ['1.000000', '0.250000'], endpoint: '0.300000' },
    ]);
  }
  // the clusters route answered for both days and had no cluster: its amount there is 0, not unknown
  await setWatermark(store, { source: 'clusters', size: 'day', from: DAY1, through: '2026-10-03T00:00:00Z' });
}

describe('rpt_reconciliation', () => {
  const store = viewStoreEachTest(givenConsistentRoutes);

  it('shows zero difference for every bucket and family when the routes agree', async () => {
    const rows = await store.all(`select bucket_start::varchar as bucket_start, family, aggregate_amount, family_amount, difference from rpt_reconciliation order by 1, 2`);
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.difference !== '0.000000')).toEqual([]);
    expect(rows.find((r) => r.family === 'pod')).toMatchObject({ aggregate_amount: '11.560000', family_amount: '11.560000' });
    expect(rows.find((r) => r.family === 'cluster')).toMatchObject({ aggregate_amount: '0.000000', family_amount: '0.000000' });
  });

  it('shows the difference where one family route was tampered with', async () => {
    await store.run(`update raw_billing_serverless set gpu_amount = gpu_amount + 1.25 where start_time = '${DAY2}'`);
    const rows = await store.all(`select bucket_start::varchar as bucket_start, family, difference from rpt_reconciliation where difference <> 0`);
    expect(rows).toEqual([{ bucket_start: '2026-10-02 00:00:00+00', family: 'serverless', difference: '-1.250000' }]);
  });

  it('marks a family route that was never loaded for a bucket as unknown instead of zero', async () => {
    await billClusters(store, [{ cluster: 'c1', size: 'hour', start: '2026-10-03T05:00:00Z', gpu: '4.000000' }]);
    await billAggregate(store, [{ size: 'hour', start: '2026-10-03T06:00:00Z', cluster: ['3.000000', '0', '0'] }]);
    const rows = await store.all(`select bucket_start::varchar as bucket_start, family, aggregate_amount, family_amount, difference from rpt_reconciliation where bucket_size = 'hour' and family = 'cluster' order by 1`);
    expect(rows).toEqual([
      { bucket_start: '2026-10-03 05:00:00+00', family: 'cluster', aggregate_amount: null, family_amount: '4.000000', difference: null },
      { bucket_start: '2026-10-03 06:00:00+00', family: 'cluster', aggregate_amount: '3.000000', family_amount: null, difference: null },
    ]);
  });

  it('says of each bucket whether it agrees, differs or was not compared, and counts a loaded route without a record as 0', async () => {
    await store.run(`update raw_billing_serverless set gpu_amount = gpu_amount + 1.25 where start_time = '${DAY2}'`);
    // the family route's hour buckets the aggregate was never read for: not compared, never added to a side
    await billPods(store, [{ pod: 'p1', size: 'hour', start: '2026-10-02T05:00:00Z', gpu: '0.400000' }]);
    // the aggregate read for 2026-10-03 answered nothing, the pods route billed $2: a difference, not a gap
    await setWatermark(store, { source: 'aggregate', size: 'day', from: DAY1, through: '2026-10-04T00:00:00Z' });
    await billPods(store, [{ pod: 'p1', start: '2026-10-03T00:00:00Z', gpu: '2.000000' }]);
    const rows = await store.all(`select bucket_size, bucket_start::varchar as bucket_start, family, aggregate_amount, family_amount, difference, status from rpt_reconciliation where status <> 'agrees' order by 1, 2, 3`);
    expect(rows).toEqual([
      { bucket_size: 'day', bucket_start: '2026-10-02 00:00:00+00', family: 'serverless', aggregate_amount: '5.030000', family_amount: '6.280000', difference: '-1.250000', status: 'differs' },
      { bucket_size: 'day', bucket_start: '2026-10-03 00:00:00+00', family: 'pod', aggregate_amount: '0.000000', family_amount: '2.000000', difference: '-2.000000', status: 'differs' },
      { bucket_size: 'hour', bucket_start: '2026-10-02 05:00:00+00', family: 'pod', aggregate_amount: null, family_amount: '0.400000', difference: null, status: 'aggregate route not loaded' },
    ]);
    expect((await store.one<{ n: string }>(`select count(*)::varchar as n from rpt_reconciliation where status = 'agrees'`))!.n).toBe('9');
  });
});
