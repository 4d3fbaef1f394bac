import { describe, expect, it } from 'vitest';
import { addInventory, billPods, billServerless, billVolumes, days, viewStoreForSuite } from '../helpers/view-store.ts';

const AS_OF = '2026-10-20T06:00:00Z';
const HISTORY = days('2026-09-20', 30); // up to and including 2026-10-19, the last complete day

describe('rpt_waste', () => {
  let findings: Record<string, unknown>[];

  const store = viewStoreForSuite(async (store) => {
    await addInventory(store, [
      { kind: 'gpu_type', id: 'NVIDIA GeForce RTX 4090', doc: { name: 'RTX 4090', pool: 'ADA_24', secure: true, community: true, price: { secure: 0.69, community: 0.34, serverless: 1.1 }, maxCount: { secure: 8, community: 8 } } },
      { kind: 'gpu_type', id: 'NVIDIA L40S', doc: { name: 'L40S', pool: 'ADA_48_PRO', secure: true, community: true, price: { secure: 0.86, community: 0.79, serverless: 1.9 }, maxCount: { secure: 8, community: 4 } } },
      { kind: 'gpu_type', id: 'NVIDIA RTX A4000', doc: { name: 'RTX A4000', pool: 'AMPERE_16', secure: true, community: true, price: { secure: 0.25, community: 0.17, serverless: 0.58 }, maxCount: { secure: 8, community: 8 } } },
      { kind: 'endpoint', id: 'ep-idle', doc: { name: 'embeddings-warm', gpu: { pools: ['AMPERE_16'], count: 1 }, workers: { min: 1, max: 2 }, networkVolumes: [] } },
      { kind: 'endpoint', id: 'ep-warm', doc: { name: 'busy-api', gpu: { pools: ['AMPERE_16'], count: 1 }, workers: { min: 1, max: 8 }, networkVolumes: ['vol-ep'] } },
      { kind: 'endpoint', id: 'ep-zero', doc: { name: 'steady-batch', gpu: { pools: ['AMPERE_16'], count: 1 }, workers: { min: 0, max: 8 }, networkVolumes: [] } },
      { kind: 'pod', id: 'pod-exited', doc: { name: 'sd-finetune-old', status: 'EXITED', gpu: { id: 'NVIDIA RTX A4000', count: 1 }, cloud: 'COMMUNITY', cost: 0, mounts: { persistent: { size: 200, path: '/workspace' } } } },
      { kind: 'pod', id: 'pod-dev', doc: { name: 'jupyter-bob', status: 'EXITED', gpu: { id: 'NVIDIA RTX A4000', count: 1 }, cloud: 'SECURE', cost: 0, mounts: { persistent: { size: 50, path: '/workspace' } } } },
      { kind: 'pod', id: 'pod-secure', doc: { name: 'llm-inference-prod', status: 'RUNNING', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 2 }, cloud: 'SECURE', cost: 1.38 } },
      { kind: 'pod', id: 'pod-community', doc: { name: 'cheap-svc', status: 'RUNNING', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 1 }, cloud: 'COMMUNITY', cost: 0.34 } },
      { kind: 'pod', id: 'pod-l40s', doc: { name: 'l40s-svc', status: 'RUNNING', gpu: { id: 'NVIDIA L40S', count: 1 }, cloud: 'SECURE', cost: 0.86, mounts: { network: [{ volumeId: 'vol-pod', path: '/data' }] } } },
      { kind: 'network_volume', id: 'vol-free', doc: { name: 'old-datasets', size: 750, dataCenter: 'EU-RO-1', type: 'STANDARD' } },
      { kind: 'network_volume', id: 'vol-pod', doc: { name: 'models', size: 100, dataCenter: 'EU-RO-1', type: 'STANDARD' } },
      { kind: 'network_volume', id: 'vol-ep', doc: { name: 'hf-cache', size: 100, dataCenter: 'EU-RO-1', type: 'STANDARD' } },
    ]);
    const weekday = (d: string) => new Date(d).getUTCDay() % 6 !== 0;
    for (const [i, day] of HISTORY.entries()) {
      await billServerless(store, [
        { endpoint: 'ep-idle', start: day, gpu: '13.920000', fee: '0.010000' },
        { endpoint: 'ep-warm', start: day, gpu: (13.92 + (weekday(day) ? 30 : 8) + (i % 3)).toFixed(6) },
        { endpoint: 'ep-zero', start: day, gpu: '20.000000' },
      ]);
      await billPods(store, [
        { pod: 'pod-exited', start: day, disk: '1.315068' },
        { pod: 'pod-dev', start: day, gpu: weekday(day) ? '2.250000' : '0', disk: '0.330000' },
        { pod: 'pod-secure', start: day, gpu: '33.120000', disk: '0.100000' },
        { pod: 'pod-community', start: day, gpu: '8.160000' },
        { pod: 'pod-l40s', start: day, gpu: '20.640000' },
      ]);
      await billVolumes(store, [
        { volume: 'vol-free', start: day, standard: '1.726027' },
        { volume: 'vol-pod', start: day, standard: '0.230137' },
        { volume: 'vol-ep', start: day, standard: '0.230137' },
      ]);
    }
    await store.run(`set variable gpuledger_as_of = '${AS_OF}'`);
    findings = await store.all(`select * from rpt_waste order by kind, resource_id`);
  });

  it('finds each kind of waste once, with a stable id, a monthly cost and the last 30 days', () => {
    expect(findings.map((f) => [f.finding_id, f.kind, f.family, f.resource_name, f.monthly_cost, f.last_30_days_amount])).toEqual([
      ['cheaper_cloud:acme:pod-secure', 'cheaper_cloud', 'pod', 'llm-inference-prod', '511.00', '996.600000'],
      ['idle_min_workers:acme:ep-idle', 'idle_min_workers', 'serverless', 'embeddings-warm', '423.70', '417.900000'],
      ['stopped_pod_volume:acme:pod-exited', 'stopped_pod_volume', 'pod', 'sd-finetune-old', '40.00', '39.452040'],
      ['unattached_volume:acme:vol-free', 'unattached_volume', 'storage', 'old-datasets', '52.50', '51.780810'],
    ]);
  });

  it('says in a sentence what is wrong and what to do', () => {
    const reasons = Object.fromEntries(findings.map((f) => [f.kind, String(f.reason)]));
    expect(reasons.idle_min_workers).toMatch(/'embeddings-warm' keeps 1 worker\(s\) running around the clock .*set workers.min to 0/);
    expect(reasons.stopped_pod_volume).toMatch(/'sd-finetune-old' has been EXITED .*200 GB volume/);
    expect(reasons.unattached_volume).toMatch(/'old-datasets' \(750 GB in EU-RO-1\) is attached to no pod and no endpoint/);
    expect(reasons.cheaper_cloud).toMatch(/2 × RTX 4090 on SECURE .*\$0.69.*\$0.34.*save about \$511/);
  });

  it('leaves healthy resources alone', () => {
    const flagged = findings.map((f) => f.resource_id);
    // real traffic above workers.min, workers.min = 0, a dev pod that ran this week, COMMUNITY already, a GPU barely
    // cheaper on COMMUNITY, volumes mounted by a pod and by an endpoint
    for (const healthy of ['ep-warm', 'ep-zero', 'pod-dev', 'pod-community', 'pod-l40s', 'vol-pod', 'vol-ep']) {
      expect(flagged).not.toContain(healthy);
    }
  });
});
