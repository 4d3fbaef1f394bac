// Back-testing sees what was known then: a pod bucket loaded at T with 10 USD, then read again after T at 500 USD
// (a restatement), with one record new after T and one gone after T. `--as-of T` evaluates on the first load, and
// --with-restatements on the data as loaded now. The loads go through the real loader, which records the
// restatements exactly as a sync does.
import { describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { dropKnownAt, shadowKnownAt } from '../../src/transform/known-at.ts';
import { parseConfig } from '../../src/config/load.ts';

import { Collect } from '../helpers/alert-delivery.ts';
import { podBucketLoader } from '../helpers/pod-bucket-loads.ts';
import { migratedTempStore } from '../helpers/view-store.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const DAY = 86_400_000;
const usd = (s: string) => BigInt(s.replace('.', ''));

describe('alerts --as-of on the data as loaded then', () => {
  const loaded = suiteFixture(
    () =>
      migratedTempStore('gpuledger-as-of-', async ({ tmp, store }) => {
        // today's day bucket, so the budget's month is the one the back-test moment falls in
        const start = new Date(Math.floor(Date.now() / DAY) * DAY);
        const load = await podBucketLoader({ store, dir: tmp.dir, start, completeThrough: start });
        await load([{ id: 'pod-r', total: '10.000000', gpu: '7.000000', cpu: '2.000000', disk: '1.000000' }, { id: 'pod-gone', total: '5.000000' }]);
        const first = await store.one<{ at: string }>(`select strftime(extracted_at, '%Y-%m-%dT%H:%M:%S.%gZ') as at from _meta_loads`);
        const knownAt = new Date(first!.at);
        // the second read must carry a later extraction time than the first
        while (Date.now() <= knownAt.getTime()) await new Promise((r) => setTimeout(r, 2));
        await load([{ id: 'pod-r', total: '500.000000', gpu: '333.333333', cpu: '100.000000', disk: '66.666667' }, { id: 'pod-new', total: '40.000000' }]);
        return { knownAt };
      }),
    60_000,
  );

  it('rebuilds billing_pods as loaded at T: the old total, components scaled exactly, the later record absent, the removed one back', async () => {
    await shadowKnownAt(loaded.store, loaded.knownAt);
    try {
      const then = await loaded.store.all(`select pod_id, total_amount::varchar as total, gpu_amount::varchar as gpu, cpu_amount::varchar as cpu, disk_amount::varchar as disk from billing_pods order by pod_id`);
      expect(then).toEqual([
        { pod_id: 'pod-gone', total: '5.000000', gpu: '5.000000', cpu: '0.000000', disk: '0.000000' },
        // 100 × 10/500 = 2; 66.666667 × 10/500 = 1.33333334 → 1.333333; the remainder to the first component
        { pod_id: 'pod-r', total: '10.000000', gpu: '6.666667', cpu: '2.000000', disk: '1.333333' },
      ]);
    } finally {
      await dropKnownAt(loaded.store);
    }
    const now = await loaded.store.all(`select pod_id, total_amount::varchar as total from billing_pods order by pod_id`);
    expect(now).toEqual([
      { pod_id: 'pod-new', total: '40.000000' },
      { pod_id: 'pod-r', total: '500.000000' },
    ]);
  });

  it('--as-of before the restatement sees the old amount; --with-restatements sees the new one', async () => {
    const config = parseConfig(
      {
        accounts: [{ name: 'acme', apiKeyEnv: 'ACME_KEY' }],
        outDir: loaded.tmp.dir,
        alerts: {
          anomaly: { enabled: false },
          waste: { enabled: false },
          dataQuality: { enabled: false },
          budgets: [{ name: 'restated', amount: '100.00', thresholds: [100], on: ['actual'] }],
          channels: [{ type: 'stdout' }],
        },
      },
      'test',
    );
    const at = (withRestatements: boolean) => runAlerts({ store: loaded.store, config, asOf: loaded.knownAt, withRestatements, dryRun: true, stdout: new Collect() });
    const then = await at(false);
    expect(then.failedRules).toEqual([]);
    expect(then.conditions).toEqual([]);
    const now = await at(true);
    expect(now.conditions.map((c) => c.key)).toEqual([expect.stringMatching(/^budget:restated:\*:/)]);
    expect(now.conditions[0]!.details).toMatchObject({ basis: 'actual' });
  });
});
