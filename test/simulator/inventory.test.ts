// Inventory routes (billing-api-v2.md §3): wrappers, required fields, the account as of the simulated now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { get, NOW, UNLIMITED } from '../helpers/simulator-http.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ now: NOW, quotas: UNLIMITED });
});
afterAll(() => sim.close());

type Pod = Record<string, unknown> & { id: string; name: string; status: string; cost: number; template: string | null; image: string };

describe('inventory routes', () => {
  it.each([
    ['/v2/pods', 'pods', ['id', 'name', 'status', 'image', 'args', 'disk', 'env', 'ports', 'registry', 'cloud', 'dataCenterId', 'template', 'cost', 'mounts', 'createdAt', 'startedAt']],
    ['/v2/serverless', 'endpoints', ['id', 'name', 'type', 'workers', 'scaling', 'dataCenterIds', 'networkVolumes', 'timeout', 'flashboot', 'createdAt']],
    ['/v2/templates', 'templates', ['id', 'name', 'image', 'args', 'disk', 'env', 'ports', 'registry', 'mounts', 'serverless', 'public', 'category', 'startSsh', 'startJupyter', 'allowedCudaVersions']],
    ['/v2/network-volumes', 'networkVolumes', ['id', 'name', 'size', 'dataCenter', 'type']],
    ['/v2/catalog/gpus', 'gpus', ['id', 'name', 'pool', 'manufacturer', 'memory', 'secure', 'community', 'price', 'maxCount']],
    ['/v2/clusters', 'clusters', ['id', 'name', 'type', 'compute', 'pods', 'createdAt']],
  ])('%s answers {%s: [...]} with the required fields', async (route, wrapper, fields) => {
    const { status, headers, body } = await get(sim, route);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(Object.keys(body)).toEqual([wrapper]);
    expect(body[wrapper].length).toBeGreaterThan(0);
    for (const item of body[wrapper]) for (const f of fields) expect(item, `${route} ${f}`).toHaveProperty(f);
  });

  it('keeps GPU ids byte-exact, double space included, with the seven pools', async () => {
    const { body } = await get(sim, '/v2/catalog/gpus');
    const ids = body.gpus.map((g: { id: string }) => g.id);
    expect(ids).toContain('NVIDIA RTX  A6000');
    expect(ids).toContain('NVIDIA GeForce RTX 4090');
    expect(new Set(body.gpus.map((g: { pool: string | null }) => g.pool))).toEqual(
      new Set(['AMPERE_16', 'AMPERE_24', 'ADA_24', 'AMPERE_48', 'ADA_48_PRO', 'AMPERE_80', 'ADA_80_PRO', null]),
    );
    const pods = (await get(sim, '/v2/pods')).body.pods as Pod[];
    const renamed = pods.find((p) => p.id === sim.account.planted.renamedPod.id)!;
    expect((renamed.gpu as { id: string }).id).toBe('NVIDIA RTX  A6000');
  });

  it('lists an EXITED pod with cost 0 and hides terminated pods', async () => {
    const pods = (await get(sim, '/v2/pods')).body.pods as Pod[];
    const exited = pods.find((p) => p.id === sim.account.planted.exitedPodWithVolume.id)!;
    expect(exited).toMatchObject({ status: 'EXITED', cost: 0, startedAt: null });
    expect(pods.some((p) => p.id === sim.account.planted.terminatedPod.id)).toBe(false);
    const running = pods.find((p) => p.id === sim.account.planted.secureCheaperOnCommunity.id)!;
    expect(running).toMatchObject({ status: 'RUNNING', cost: 1.38, cloud: 'SECURE' });
  });

  it('shows template null for a pod created from a template whose image equals the template image', async () => {
    const fact = sim.account.planted.templateNullPod;
    const pods = (await get(sim, '/v2/pods')).body.pods as Pod[];
    const pod = pods.find((p) => p.id === fact.id)!;
    expect(pod.template).toBeNull();
    const templates = (await get(sim, '/v2/templates')).body.templates as { id: string; image: string }[];
    expect(templates.find((t) => t.id === fact.templateId)!.image).toBe(pod.image);
  });

  it('adds cluster member pods only with includeClusterPods=true', async () => {
    const members = sim.account.planted.cluster.memberPodIds;
    const plain = (await get(sim, '/v2/pods')).body.pods as Pod[];
    expect(plain.some((p) => members.includes(p.id))).toBe(false);
    const all = (await get(sim, '/v2/pods?includeClusterPods=true')).body.pods as Pod[];
    const listed = all.filter((p) => members.includes(p.id));
    expect(listed).toHaveLength(members.length);
    expect(listed[0]!.cluster).toEqual({ id: sim.account.planted.cluster.id, rank: 0, role: 'primary' });
    const clusters = (await get(sim, '/v2/clusters')).body.clusters;
    expect(clusters[0].compute).toEqual({ gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 4, podCount: 2 });
  });

  it('has no template id on v2 Serverless endpoints', async () => {
    const endpoints = (await get(sim, '/v2/serverless')).body.endpoints as Record<string, unknown>[];
    for (const e of endpoints) {
      expect(e).not.toHaveProperty('templateId');
      expect(e).not.toHaveProperty('template');
    }
  });

  it('reflects the account at the simulated now: renames and terminations follow the clock', async () => {
    const local = await startSimulator({ now: NOW });
    try {
      const { id, oldName, newName, renamedAt } = local.account.planted.renamedPod;
      const nameNow = async () => ((await get(local, '/v2/pods')).body.pods as Pod[]).find((p) => p.id === id)?.name;
      expect(await nameNow()).toBe(oldName);
      local.setNow(new Date(renamedAt.getTime() + 60_000));
      expect(await nameNow()).toBe(newName);
      // the cluster is terminated 20 days after the initial now: its pods and the cluster disappear
      local.setNow('2026-12-20T00:00:00Z');
      expect((await get(local, '/v2/clusters')).body.clusters).toEqual([]);
      // an hour before it stopped, the exited pod was running
      local.setNow(new Date(local.account.planted.exitedPodWithVolume.stoppedAt.getTime() - 3_600_000));
      const before = ((await get(local, '/v2/pods')).body.pods as Pod[]).find((p) => p.id === local.account.planted.exitedPodWithVolume.id)!;
      expect(before.status).toBe('RUNNING');
      expect(before.cost).toBeGreaterThan(0);
    } finally {
      await local.close();
    }
  });

  it('keeps the planted unattached volume unmounted by every pod and endpoint', async () => {
    const { id } = sim.account.planted.unattachedVolume;
    const volumes = (await get(sim, '/v2/network-volumes')).body.networkVolumes as { id: string }[];
    expect(volumes.some((v) => v.id === id)).toBe(true);
    const pods = (await get(sim, '/v2/pods?includeClusterPods=true')).body.pods as { mounts: { network?: { volumeId: string }[] } }[];
    expect(pods.some((p) => p.mounts.network?.some((m) => m.volumeId === id))).toBe(false);
    const endpoints = (await get(sim, '/v2/serverless')).body.endpoints as { networkVolumes: string[] }[];
    expect(endpoints.some((e) => e.networkVolumes.includes(id))).toBe(false);
  });
});
