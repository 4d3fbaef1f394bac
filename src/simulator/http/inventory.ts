// Inventory routes (billing-api-v2.md §3): the account as it stands at the simulated now. Resources created later
// are not there yet, terminated or deleted ones are gone (their bills remain), names are those in effect at now,
// and an EXITED pod is listed with cost 0. Lists are wrapped ({pods}, {endpoints}, …) and never paged.
import { formatRfc3339 } from '../../util/buckets.ts';
import { intervalAt } from '../account/activity.ts';
import { RUNNING, type SimEndpoint, type SimPod, type SyntheticAccount } from '../account/types.ts';

const iso = (d: Date) => formatRfc3339(d);
const alive = (created: Date, gone: Date | null, now: number) => created.getTime() <= now && (gone === null || gone.getTime() > now);

export function podNameAt(pod: SimPod, now: number): string {
  let name = pod.names[0]!.name;
  for (const n of pod.names) if (n.from.getTime() <= now) name = n.name;
  return name;
}

export function podView(pod: SimPod, now: number) {
  const i = intervalAt(pod.activity, now);
  const running = i >= 0 && pod.activity.states[i] === RUNNING;
  const mounts: Record<string, unknown> = {};
  if (pod.volume) mounts.persistent = { size: pod.volume.size, path: pod.volume.path };
  if (pod.networkVolumeIds.length) mounts.network = pod.networkVolumeIds.map((volumeId) => ({ volumeId, path: '/workspace' }));
  return {
    id: pod.id,
    name: podNameAt(pod, now),
    status: running ? 'RUNNING' : 'EXITED',
    image: pod.image,
    args: pod.args,
    disk: pod.containerDisk,
    env: pod.env,
    ports: pod.ports,
    registry: null,
    ...(pod.gpu ? { gpu: { id: pod.gpu.id, count: pod.gpu.count } } : {}),
    ...(pod.cpu ? { cpu: pod.cpu } : {}),
    cloud: pod.cloud,
    dataCenterId: pod.dataCenterId,
    template: pod.templateVisible ? pod.templateId : null,
    cost: running ? pod.computePrice : 0,
    mounts,
    ...(pod.cluster ? { cluster: pod.cluster } : {}),
    createdAt: iso(pod.createdAt),
    // the start of the current run; null while EXITED
    startedAt: running ? iso(new Date(pod.activity.starts[i]!)) : null,
  };
}

export function listPods(account: SyntheticAccount, now: number, includeClusterPods: boolean) {
  const pods = account.pods.filter((p) => alive(p.createdAt, p.terminatedAt, now) && (includeClusterPods || p.cluster === null));
  return { pods: pods.map((p) => podView(p, now)) };
}

export function endpointView(e: SimEndpoint) {
  return {
    id: e.id,
    name: e.name,
    type: e.type,
    ...(e.pools
      ? { gpu: { pools: e.pools, excludedTypes: [], count: e.gpuCount, allowedCudaVersions: ['12.1', '12.4'], minCudaVersion: '12.1' } }
      : {}),
    ...(e.cpu ? { cpu: e.cpu } : {}),
    workers: { min: e.workersMin, max: e.workersMax, idleTimeout: e.idleTimeout },
    scaling: e.scaling,
    dataCenterIds: e.dataCenterIds,
    networkVolumes: e.networkVolumeIds,
    timeout: e.timeout,
    flashboot: e.flashboot,
    createdAt: iso(e.createdAt),
    image: e.image,
    args: e.args,
    disk: e.containerDisk,
    env: e.env,
    ports: e.ports,
    registry: null,
    // no template id in v2 (§3): only GraphQL knows it
  };
}

export function listEndpoints(account: SyntheticAccount, now: number) {
  return { endpoints: account.endpoints.filter((e) => alive(e.createdAt, e.deletedAt, now)).map(endpointView) };
}

export function listTemplates(account: SyntheticAccount) {
  return { templates: account.templates };
}

export function listNetworkVolumes(account: SyntheticAccount, now: number) {
  return {
    networkVolumes: account.volumes
      .filter((v) => alive(v.createdAt, v.deletedAt, now))
      .map((v) => ({ id: v.id, name: v.name, size: v.size, dataCenter: v.dataCenter, type: v.type })),
  };
}

export function listGpus(account: SyntheticAccount) {
  return { gpus: account.gpus };
}

export function listClusters(account: SyntheticAccount, now: number) {
  return {
    clusters: account.clusters
      .filter((c) => alive(c.createdAt, c.terminatedAt, now))
      .map((c) => ({
        id: c.id,
        name: c.name,
        type: c.type,
        compute: { gpuTypeId: c.gpuTypeId, gpuCountPerPod: c.gpuCountPerPod, podCount: c.podCount },
        ...(c.templateId ? { template: c.templateId } : {}),
        dataCenterId: c.dataCenterId,
        pods: c.memberPodIds.map((id) => {
          const pod = account.pods.find((p) => p.id === id)!;
          return { id, name: podNameAt(pod, now), rank: pod.cluster!.rank, role: pod.cluster!.role, status: 'RUNNING' };
        }),
        createdAt: iso(c.createdAt),
      })),
  };
}
