// The views against a simulated account: the cost facts add up to the simulator's ledger per family and bucket
// size, the aggregate route reconciles with the family routes, and rpt_waste finds the planted waste.
// The account is loaded with test/integration/simulator-loader.ts (ledger records + inventory routes) until
// `gpuledger sync` exists; then this test should sync instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type BillingSource, type Simulator } from '../../src/simulator/index.ts';
import type { Store } from '../../src/store/database.ts';
import { microsToDecimalString } from '../../src/util/decimal.ts';
import { viewStore } from '../helpers/view-store.ts';
import { loadSimulator } from '../helpers/simulator-loader.ts';

const NOW = '2026-11-20T00:00:00Z';
const FAMILY: Record<string, BillingSource> = {
  pod: 'pods',
  serverless: 'serverless',
  storage: 'network-volumes',
  public_endpoint: 'endpoints',
  cluster: 'clusters',
};

describe('views on a simulated account', () => {
  let sim: Simulator;
  let store: Store;
  let start: Date;
  const end = new Date(NOW);

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, scale: 'small', now: NOW });
    start = sim.account.historyStart;
    store = await viewStore();
    // day buckets for the whole history, hours for the last 14 days (gpuledger's default sync plan)
    await loadSimulator(store, sim, { bucketSizes: ['day'], start, end });
    await loadSimulator(store, sim, { bucketSizes: ['hour'], start: new Date(end.getTime() - 14 * 86_400_000), end, inventory: false });
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await sim?.close();
  });

  it('adds cost up to the ledger per family and bucket size, to the micro-dollar', async () => {
    const hourStart = new Date(end.getTime() - 14 * 86_400_000);
    for (const [family, source] of Object.entries(FAMILY)) {
      for (const [size, from] of [['day', start], ['hour', hourStart]] as const) {
        const expected = microsToDecimalString(sim.ledger.sum({ source, start: from, end }).totalAmount);
        const row = await store.one<{ total: string | null }>(
          `select coalesce(sum(amount), 0)::decimal(38,6)::varchar as total from cost where family = $1 and bucket_size = $2`,
          [family, size],
        );
        expect(row?.total, `${family} ${size}`).toBe(expected);
      }
    }
  });

  it('has cost_daily equal to the ledger, each day counted once', async () => {
    const expected = microsToDecimalString(sim.ledger.sum({ source: 'aggregate', start, end }).totalAmount);
    expect(await store.one(`select sum(amount)::varchar as total from cost_daily`)).toEqual({ total: expected });
  });

  it('joins cost_daily to dim_gpu_type on (account, gpu_type_id) without losing a dollar, Serverless pools included', async () => {
    const row = await store.one<{ with_gpu: string; joined: string; pools: string }>(
      `select
         (select sum(amount)::varchar from cost_daily where gpu_type_id is not null) as with_gpu,
         (select sum(c.amount)::varchar from cost_daily as c join dim_gpu_type as g using (account, gpu_type_id)) as joined,
         (select count(*)::varchar from dim_gpu_type where is_pool) as pools`,
    );
    // the simulated account has Serverless endpoints on pools of several GPU types (ADA_24): cost names them by pool
    expect(Number(row?.pools)).toBeGreaterThan(0);
    expect(row?.joined).toBe(row?.with_gpu);
    // one dim row per key: the join never counts a dollar twice
    expect(await store.one(`select count(*)::int as n from (select account, gpu_type_id from dim_gpu_type group by all having count(*) > 1)`)).toEqual({ n: 0 });
  });

  it('reconciles the aggregate route with the family routes: every difference is zero', async () => {
    const rows = await store.all(`select bucket_size, count(*) as n, count(*) filter (where difference <> 0 or difference is null) as off from rpt_reconciliation group by 1 order by 1`);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.off, String(r.bucket_size)).toBe('0');
  });

  it('finds each planted waste', async () => {
    const planted = sim.account.planted;
    const findings = await store.all<{ kind: string; resource_id: string; monthly_cost: string }>(`select kind, resource_id, monthly_cost from rpt_waste order by kind, resource_id`);
    const found = findings.map((f) => `${f.kind}:${f.resource_id}`);
    expect(found).toContain(`idle_min_workers:${planted.idleMinWorkersEndpoint.id}`);
    expect(found).toContain(`unattached_volume:${planted.unattachedVolume.id}`);
    expect(found).toContain(`stopped_pod_volume:${planted.exitedPodWithVolume.id}`);
    expect(found).toContain(`cheaper_cloud:${planted.secureCheaperOnCommunity.id}`);
    // Nothing else – except that the simulator's ordinary pods include SECURE pods at list price on GPUs whose
    // COMMUNITY price is far lower: those are the same finding, not a false one, so they must really qualify
    const plantedIds = new Set([
      planted.idleMinWorkersEndpoint.id,
      planted.unattachedVolume.id,
      planted.exitedPodWithVolume.id,
      planted.secureCheaperOnCommunity.id,
    ]);
    for (const f of findings.filter((x) => !plantedIds.has(x.resource_id))) {
      expect(f.kind, `${f.kind}:${f.resource_id}`).toBe('cheaper_cloud');
      const pod = sim.account.pods.find((p) => p.id === f.resource_id)!;
      const card = sim.account.gpus.find((g) => g.id === pod.gpu?.id)!;
      expect(pod.cloud).toBe('SECURE');
      expect(pod.computePrice).toBeCloseTo(card.price.secure! * pod.gpu!.count, 6);
      expect(card.price.community!).toBeLessThanOrEqual(0.8 * card.price.secure!);
    }
  });
});
