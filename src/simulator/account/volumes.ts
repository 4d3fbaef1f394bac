// Network volumes: each one (except the planted unattached volume) belongs to a pod or an endpoint that mounts it,
// lives exactly as long as its owner (so the planted volume is the only unattached one at any now), and sits in
// its owner's data center.
import type { GenContext } from './context.ts';
import type { SimEndpoint, SimPod, SimVolume } from './types.ts';

const PURPOSES = ['models', 'datasets', 'checkpoints', 'hf-cache', 'outputs', 'embeddings', 'loras', 'audio'];

type Owner = { kind: 'pod'; pod: SimPod } | { kind: 'endpoint'; endpoint: SimEndpoint };

/**
 * `count` volumes attached to owners drawn from `pods` and `endpoints` (mutating their mounts); a pod that gets a
 * network volume loses its persistent volume (the two are exclusive on the platform).
 */
export function createAttachedVolumes(ctx: GenContext, count: number, pods: SimPod[], endpoints: SimEndpoint[]): SimVolume[] {
  const { rng } = ctx;
  const owners: Owner[] = [
    ...endpoints.map((endpoint) => ({ kind: 'endpoint' as const, endpoint })),
    ...pods.filter((p) => p.kind === 'service' || p.kind === 'dev' || p.kind === 'sessions').map((pod) => ({ kind: 'pod' as const, pod })),
  ];
  // Fisher–Yates with the account PRNG: which owners get volumes is part of the seed's account
  for (let i = owners.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [owners[i], owners[j]] = [owners[j]!, owners[i]!];
  }
  const volumes: SimVolume[] = [];
  for (let i = 0; i < count && owners.length > 0; i++) {
    const owner = owners[i % owners.length]!;
    const created = owner.kind === 'pod' ? owner.pod.createdAt : owner.endpoint.createdAt;
    const gone = owner.kind === 'pod' ? owner.pod.terminatedAt : owner.endpoint.deletedAt;
    const dataCenter = owner.kind === 'pod' ? owner.pod.dataCenterId : owner.endpoint.dataCenterIds[0]!;
    // one volume above 1 TB exercises the lower storage tier (billing-api-v2.md §6)
    const size = i === 0 ? 2048 : rng.weighted([[50, 10], [100, 25], [200, 25], [500, 20], [1000, 10], [1500, 5], [4000, 5]]);
    const volume: SimVolume = {
      id: ctx.newId(10),
      name: `${rng.pick(PURPOSES)}-${String(i + 1).padStart(2, '0')}`,
      size,
      dataCenter,
      type: rng.chance(0.3) ? 'HIGH_PERFORMANCE' : 'STANDARD',
      createdAt: new Date(created),
      deletedAt: gone === null ? null : new Date(gone),
    };
    if (owner.kind === 'pod') {
      owner.pod.volume = null;
      owner.pod.networkVolumeIds.push(volume.id);
    } else {
      owner.endpoint.networkVolumeIds.push(volume.id);
    }
    volumes.push(volume);
  }
  return volumes;
}
