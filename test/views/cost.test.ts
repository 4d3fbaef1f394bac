import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/database.ts';
import { addInventory, billClusters, billPods, billPublicEndpoints, billServerless, billVolumes, viewStoreEachTest } from '../helpers/view-store.ts';

const RENAMED_AT = '2026-10-10T12:00:00Z';

async function givenAccount(store: Store): Promise<void> {
  await addInventory(store, [
    { kind: 'gpu_type', id: 'NVIDIA RTX  A6000', doc: { name: 'RTX A6000', pool: 'AMPERE_48', price: { secure: 0.49, community: 0.33, serverless: 1.22 } } },
    { kind: 'gpu_type', id: 'NVIDIA RTX A4000', doc: { name: 'RTX A4000', pool: 'AMPERE_16', price: { secure: 0.25, community: 0.17, serverless: 0.58 } } },
    { kind: 'gpu_type', id: 'NVIDIA GeForce RTX 4090', doc: { name: 'RTX 4090', pool: 'ADA_24', price: { secure: 0.69, community: 0.34, serverless: 1.1 } } },
    { kind: 'gpu_type', id: 'NVIDIA L4', doc: { name: 'L4', pool: 'ADA_24', price: { secure: 0.43, community: null, serverless: 0.69 } } },
    // a template renamed at RENAMED_AT
    { kind: 'template', id: 'tpl-comfy', doc: { name: 'ComfyUI', image: 'comfy:1' }, to: RENAMED_AT },
    { kind: 'template', id: 'tpl-comfy', doc: { name: 'ComfyUI v2', image: 'comfy:1' }, from: RENAMED_AT },
    { kind: 'template', id: 'tpl-torch', doc: { name: 'PyTorch 2.4', image: 'runpod/pytorch:2.4' } },
    // two templates share an image: no image match is possible for it
    { kind: 'template', id: 'tpl-a', doc: { name: 'Shared A', image: 'shared:1' } },
    { kind: 'template', id: 'tpl-b', doc: { name: 'Shared B', image: 'shared:1' } },
    { kind: 'template', id: 'tpl-embed', doc: { name: 'worker-embedding', image: 'embed:1', serverless: true } },
    // pod renamed at RENAMED_AT, linked to the renamed template
    { kind: 'pod', id: 'pod-renamed', doc: { name: 'notebook-alice', gpu: { id: 'NVIDIA RTX  A6000', count: 1 }, template: 'tpl-comfy', image: 'comfy:1', status: 'RUNNING', cloud: 'COMMUNITY', dataCenterId: 'EU-SE-1' }, to: RENAMED_AT },
    { kind: 'pod', id: 'pod-renamed', doc: { name: 'notebook-alice-a6000', gpu: { id: 'NVIDIA RTX  A6000', count: 1 }, template: 'tpl-comfy', image: 'comfy:1', status: 'RUNNING', cloud: 'COMMUNITY', dataCenterId: 'EU-SE-1' }, from: RENAMED_AT },
    // terminated long ago: its only version is current (to infinity) with deleted_at set
    { kind: 'pod', id: 'pod-gone', doc: { name: 'batch-eval-h100', gpu: { id: 'NVIDIA RTX A4000', count: 1 }, template: 'tpl-torch', image: 'x', status: 'RUNNING' }, deletedAt: '2026-09-05T00:00:00Z' },
    // template link missing, image unique to one template
    { kind: 'pod', id: 'pod-null', doc: { name: 'jupyter-bob', gpu: { id: 'NVIDIA RTX A4000', count: 1 }, template: null, image: 'runpod/pytorch:2.4', status: 'RUNNING' } },
    // template link missing, image shared by two templates
    { kind: 'pod', id: 'pod-ambiguous', doc: { name: 'ambiguous', template: null, image: 'shared:1', status: 'RUNNING', cpu: { id: 'cpu3c', vcpuCount: 4 } } },
    { kind: 'endpoint', id: 'ep-embed', doc: { name: 'embeddings-warm', gpu: { pools: ['AMPERE_16'], count: 1 }, workers: { min: 1, max: 2 }, dataCenterIds: ['EU-RO-1'], networkVolumes: [] } },
    { kind: 'endpoint', id: 'ep-sdxl', doc: { name: 'sdxl-image-api', gpu: { pools: ['ADA_24', 'AMPERE_24'], count: 1 }, workers: { min: 0, max: 30 } } },
    { kind: 'graphql_endpoint', id: 'ep-embed', doc: { name: 'embeddings-warm', templateId: 'tpl-embed', gpuIds: 'AMPERE_16', workersMin: 1, workersMax: 2 } },
    { kind: 'network_volume', id: 'vol-1', doc: { name: 'old-datasets', size: 750, dataCenter: 'EU-RO-1', type: 'STANDARD' } },
    { kind: 'cluster', id: 'cl-1', doc: { name: 'llama-pretrain', compute: { gpuTypeId: 'NVIDIA RTX A4000', gpuCountPerPod: 4, podCount: 2 }, template: 'tpl-torch', dataCenterId: 'US-TX-3' } },
  ]);
  await billPods(store, [
    { pod: 'pod-renamed', start: '2026-10-09T00:00:00Z', gpu: '7.920000', disk: '0.240000' },
    { pod: 'pod-renamed', start: '2026-10-11T00:00:00Z', gpu: '7.920000', disk: '0.240000' },
    { pod: 'pod-renamed', size: 'hour', start: '2026-10-10T11:00:00Z', gpu: '0.330000', disk: '0.010000' },
    { pod: 'pod-renamed', size: 'hour', start: '2026-10-10T12:00:00Z', gpu: '0.330000', disk: '0.010000' },
    { pod: 'pod-gone', start: '2026-09-01T00:00:00Z', gpu: '6.000000' },
    { pod: 'pod-null', start: '2026-10-09T00:00:00Z', gpu: '2.000000', disk: '0.100000' },
    { pod: 'pod-ambiguous', start: '2026-10-09T00:00:00Z', cpu: '0.960000' },
    { pod: 'pod-unknown', start: '2026-10-09T00:00:00Z', gpu: '1.000000' },
  ]);
  await billServerless(store, [
    { endpoint: 'ep-embed', start: '2026-10-09T00:00:00Z', gpu: '13.920000', fee: '0.100000' },
    { endpoint: 'ep-sdxl', start: '2026-10-09T00:00:00Z', gpu: '20.000000', disk: '0.500000' },
  ]);
  await billVolumes(store, [{ volume: 'vol-1', start: '2026-10-09T00:00:00Z', standard: '1.726027', highPerformance: '0.500000' }]);
  await billPublicEndpoints(store, [{ start: '2026-10-09T00:00:00Z', amount: '3.210000' }]);
  await billClusters(store, [{ cluster: 'cl-1', start: '2026-10-09T00:00:00Z', gpu: '48.000000', disk: '1.000000', networking: '0.250000' }]);
}

describe('cost', () => {
  const store = viewStoreEachTest(givenAccount);

  const rowsFor = (resource: string) =>
    store.all(
      `select bucket_size, bucket_start::varchar as bucket_start, component, resource_name, gpu_type_id, gpu_type_name, template_id, template_name, endpoint_id, endpoint_name, attribution, amount
       from cost where resource_id = $1 order by bucket_size, bucket_start, component`,
      [resource],
    );

  it('has exactly the DESIGN.md columns in order', async () => {
    const cols = await store.all<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'cost' order by ordinal_position`,
    );
    expect(cols.map((c) => c.column_name)).toEqual([
      'account', 'family', 'component', 'bucket_size', 'bucket_start', 'bucket_end', 'resource_id', 'resource_name',
      'gpu_type_id', 'gpu_type_name', 'data_center_id', 'template_id', 'template_name', 'endpoint_id', 'endpoint_name',
      'attribution', 'amount',
    ]);
  });

  it('names a pod and its template as of each bucket, one row per non-zero component', async () => {
    const rows = await rowsFor('pod-renamed');
    expect(rows.map((r) => [r.bucket_size, r.bucket_start, r.component, r.resource_name, r.template_name, r.attribution])).toEqual([
      ['day', '2026-10-09 00:00:00+00', 'disk', 'notebook-alice', 'ComfyUI', 'inventory'],
      ['day', '2026-10-09 00:00:00+00', 'gpu', 'notebook-alice', 'ComfyUI', 'inventory'],
      ['day', '2026-10-11 00:00:00+00', 'disk', 'notebook-alice-a6000', 'ComfyUI v2', 'inventory'],
      ['day', '2026-10-11 00:00:00+00', 'gpu', 'notebook-alice-a6000', 'ComfyUI v2', 'inventory'],
      ['hour', '2026-10-10 11:00:00+00', 'disk', 'notebook-alice', 'ComfyUI', 'inventory'],
      ['hour', '2026-10-10 11:00:00+00', 'gpu', 'notebook-alice', 'ComfyUI', 'inventory'],
      ['hour', '2026-10-10 12:00:00+00', 'disk', 'notebook-alice-a6000', 'ComfyUI v2', 'inventory'],
      ['hour', '2026-10-10 12:00:00+00', 'gpu', 'notebook-alice-a6000', 'ComfyUI v2', 'inventory'],
    ]);
    // GPU type ids are kept byte-exact, double space included
    expect(rows[0]!.gpu_type_id).toBe('NVIDIA RTX  A6000');
    expect(rows[0]!.gpu_type_name).toBe('RTX A6000');
  });

  it('keeps the name, GPU type and template of a pod terminated long ago', async () => {
    expect(await rowsFor('pod-gone')).toEqual([
      expect.objectContaining({ resource_name: 'batch-eval-h100', gpu_type_name: 'RTX A4000', template_id: 'tpl-torch', template_name: 'PyTorch 2.4', attribution: 'inventory', amount: '6.000000' }),
    ]);
  });

  it('matches a pod without template link by image only when exactly one template has it', async () => {
    const [matched] = await rowsFor('pod-null');
    expect(matched).toMatchObject({ template_id: 'tpl-torch', template_name: 'PyTorch 2.4', attribution: 'image_match' });
    const [ambiguous] = await rowsFor('pod-ambiguous');
    expect(ambiguous).toMatchObject({ component: 'cpu', template_id: null, attribution: 'unknown', resource_name: 'ambiguous' });
  });

  it('leaves a resource without inventory unnamed and unknown', async () => {
    expect(await rowsFor('pod-unknown')).toEqual([
      expect.objectContaining({ resource_name: null, gpu_type_id: null, template_id: null, attribution: 'unknown', amount: '1.000000' }),
    ]);
  });

  it('links Serverless endpoints to templates through GraphQL and to GPU types through pools', async () => {
    expect(await rowsFor('ep-embed')).toEqual([
      expect.objectContaining({ component: 'fee', endpoint_id: 'ep-embed', endpoint_name: 'embeddings-warm', template_name: 'worker-embedding', attribution: 'graphql' }),
      expect.objectContaining({ component: 'gpu', gpu_type_id: 'NVIDIA RTX A4000', gpu_type_name: 'RTX A4000', attribution: 'graphql' }),
    ]);
    // the preferred pool holds two catalog types: the pool itself is the GPU type
    const [sdxl] = await rowsFor('ep-sdxl');
    expect(sdxl).toMatchObject({ gpu_type_id: 'ADA_24', gpu_type_name: 'ADA_24 pool', template_id: null, attribution: 'unknown' });
  });

  it('carries storage (with high-performance), public endpoint and cluster amounts', async () => {
    const rows = await store.all(
      `select family, component, resource_id, resource_name, gpu_type_name, template_name, amount from cost
       where family in ('storage', 'public_endpoint', 'cluster') order by family, component`,
    );
    expect(rows).toEqual([
      { family: 'cluster', component: 'disk', resource_id: 'cl-1', resource_name: 'llama-pretrain', gpu_type_name: 'RTX A4000', template_name: 'PyTorch 2.4', amount: '1.000000' },
      { family: 'cluster', component: 'gpu', resource_id: 'cl-1', resource_name: 'llama-pretrain', gpu_type_name: 'RTX A4000', template_name: 'PyTorch 2.4', amount: '48.000000' },
      { family: 'cluster', component: 'networking', resource_id: 'cl-1', resource_name: 'llama-pretrain', gpu_type_name: 'RTX A4000', template_name: 'PyTorch 2.4', amount: '0.250000' },
      { family: 'public_endpoint', component: 'usage', resource_id: null, resource_name: null, gpu_type_name: null, template_name: null, amount: '3.210000' },
      { family: 'storage', component: 'high_performance', resource_id: 'vol-1', resource_name: 'old-datasets', gpu_type_name: null, template_name: null, amount: '0.500000' },
      { family: 'storage', component: 'standard', resource_id: 'vol-1', resource_name: 'old-datasets', gpu_type_name: null, template_name: null, amount: '1.726027' },
    ]);
  });

  it('adds up to the raw tables per account, family and bucket size to the cent, with no row lost or doubled', async () => {
    const diff = await store.all(`
      with raw as (
          select account, 'pod' as family, bucket_size, sum(total_amount) as amount from raw_billing_pods group by all
          union all select account, 'serverless', bucket_size, sum(total_amount) from raw_billing_serverless group by all
          union all select account, 'storage', bucket_size, sum(total_amount) from raw_billing_network_volumes group by all
          union all select account, 'public_endpoint', bucket_size, sum(total_amount) from raw_billing_endpoints group by all
          union all select account, 'cluster', bucket_size, sum(total_amount) from raw_billing_clusters group by all
      ),
      facts as (select account, family, bucket_size, sum(amount) as amount from cost group by all)
      select * from raw full outer join facts using (account, family, bucket_size)
      where raw.amount is distinct from facts.amount`);
    expect(diff).toEqual([]);
    const dupes = await store.all(
      `select resource_id, bucket_size, bucket_start, component, count(*) as n from cost group by all having count(*) > 1`,
    );
    expect(dupes).toEqual([]);
  });
});
