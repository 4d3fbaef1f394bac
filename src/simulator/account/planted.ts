// The planted facts (present in every scale, at fixed offsets from the initial now) that reports and alerts must
// find: an idle warm endpoint, an unattached volume, an EXITED pod paying for its volume, a SECURE pod that would
// be cheaper on COMMUNITY, a one-day spend spike, a recently terminated pod – plus a renamed pod, a pod whose
// template link is missing, and the Instant Cluster.
import { DAY, HOUR, MINUTE, floorTo } from '../time.ts';
import { catalogGpu } from './catalog.ts';
import type { GenContext } from './context.ts';
import { endpointFromSpec } from './endpoints.ts';
import { continuousActivity, devActivity, runThenExit } from './activity.ts';
import { podFromSpec } from './pods.ts';
import type { PlantedFacts, SimCluster, SimEndpoint, SimPod, SimTemplate, SimVolume } from './types.ts';

export interface PlantedResources {
  pods: SimPod[];
  clusterPods: SimPod[];
  endpoints: SimEndpoint[];
  volume: SimVolume;
  cluster: SimCluster;
  facts: PlantedFacts;
}

/** The smallest counts that still hold every planted fact. */
export const PLANTED_MINIMUM = { pods: 5, endpoints: 2, volumes: 1, days: 40 } as const;

export function createPlanted(ctx: GenContext, templates: readonly SimTemplate[]): PlantedResources {
  const { d0, t0, historyStart, horizonEnd } = ctx;
  const at = (days: number, hours = 0) => Math.max(historyStart, d0 + days * DAY + hours * HOUR);
  const template = (name: string) => {
    const found = templates.find((t) => t.name === name);
    if (!found) throw new RangeError(`built-in template '${name}' missing`);
    return found;
  };

  const secureCreated = at(-60, 9);
  const secure = podFromSpec(ctx, {
    name: 'llm-inference-prod', kind: 'service', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 2 }, cloud: 'SECURE',
    dataCenterId: 'US-TX-3', template: template('vLLM OpenAI server'), templateVisible: true, containerDisk: 20,
    volume: { size: 80, path: '/workspace' }, createdAt: secureCreated, terminatedAt: null,
    activity: continuousActivity(secureCreated, horizonEnd),
  });

  const exitedCreated = at(-45, 10);
  const stoppedAt = at(-21, 14) + 20 * MINUTE;
  const exited = podFromSpec(ctx, {
    name: 'sd-finetune-old', kind: 'sessions', gpu: { id: 'NVIDIA RTX A5000', count: 1 }, cloud: 'COMMUNITY',
    dataCenterId: 'EU-RO-1', template: template('Axolotl fine-tune'), templateVisible: true, containerDisk: 20,
    volume: { size: 200, path: '/workspace' }, createdAt: exitedCreated, terminatedAt: null,
    activity: runThenExit(exitedCreated, stoppedAt, horizonEnd),
  });

  const batchCreated = at(-35, 9);
  const batchEnd = at(-25, 17.5);
  const terminated = podFromSpec(ctx, {
    name: 'batch-eval-h100', kind: 'batch', gpu: { id: 'NVIDIA H100 80GB HBM3', count: 1 }, cloud: 'SECURE',
    dataCenterId: 'US-CA-2', template: null, templateVisible: false, image: 'ghcr.io/acme-ml/eval-harness:2.3',
    containerDisk: 40, volume: null, createdAt: batchCreated, terminatedAt: batchEnd,
    activity: continuousActivity(batchCreated, batchEnd),
  });

  const notebookCreated = at(-30, 8);
  const renamedAt = floorTo(t0, HOUR) + DAY;
  const renamed = podFromSpec(ctx, {
    name: 'notebook-alice', kind: 'service', gpu: { id: 'NVIDIA RTX  A6000', count: 1 }, cloud: 'COMMUNITY',
    dataCenterId: 'EU-SE-1', template: template('ComfyUI'), templateVisible: true, containerDisk: 20,
    volume: { size: 100, path: '/workspace' }, createdAt: notebookCreated, terminatedAt: null,
    activity: continuousActivity(notebookCreated, horizonEnd),
  });
  renamed.names.push({ name: 'notebook-alice-a6000', from: new Date(renamedAt) });

  const jupyterCreated = at(-50, 8);
  const pytorch = template('PyTorch 2.4');
  const templateNull = podFromSpec(ctx, {
    name: 'jupyter-bob', kind: 'dev', gpu: { id: 'NVIDIA RTX A4000', count: 1 }, cloud: 'SECURE',
    dataCenterId: 'US-GA-1', template: pytorch, templateVisible: false, containerDisk: 20,
    volume: { size: 50, path: '/workspace' }, createdAt: jupyterCreated, terminatedAt: null,
    activity: devActivity(ctx.rng.int(1, 2 ** 30), jupyterCreated, horizonEnd),
  });

  const idle = endpointFromSpec(ctx, {
    name: 'embeddings-warm', template: template('worker-infinity-embedding'), pools: ['AMPERE_16'], gpuCount: 1,
    workersMin: 1, workersMax: 2, idleTimeout: 60, flashboot: 'FLASHBOOT', createdAt: at(-80, 10), deletedAt: null,
    traffic: { peakWorkers: 0.03, peakHour: 15, weekendFactor: 0.5, growthPerYear: 0.1, idleThreshold: 0.05 },
  });

  // the spike falls on the weekday nearest to ten days before now, so it stands out of a weekday baseline
  let spikeDay = d0 - 10 * DAY;
  const weekday = (spikeDay / DAY + 4) % 7; // 0 = Sunday
  if (weekday === 6) spikeDay -= DAY;
  if (weekday === 0) spikeDay += DAY;
  const spiky = endpointFromSpec(ctx, {
    name: 'sdxl-image-api', template: template('worker-sdxl'), pools: ['ADA_24', 'AMPERE_24'], gpuCount: 1,
    workersMin: 0, workersMax: 30, idleTimeout: 5, flashboot: 'OFF', createdAt: at(-90, 10), deletedAt: null,
    traffic: { peakWorkers: 1.5, peakHour: 17, weekendFactor: 0.6, growthPerYear: 0.6, idleThreshold: 0.1 },
    spike: { day: new Date(spikeDay), factor: 8 },
  });

  const volume: SimVolume = {
    id: ctx.newId(10), name: 'old-datasets', size: 750, dataCenter: 'EU-RO-1', type: 'STANDARD',
    createdAt: new Date(at(-100, 11)), deletedAt: null,
  };

  const clusterCreated = at(-12, 6);
  const clusterEnd = d0 + 20 * DAY + 6 * HOUR;
  const clusterId = ctx.newId(14);
  const clusterPods = [0, 1].map((rank) =>
    podFromSpec(ctx, {
      name: `llama-pretrain-${rank}`, kind: 'cluster-member', gpu: { id: 'NVIDIA H100 80GB HBM3', count: 4 }, cloud: 'SECURE',
      dataCenterId: 'US-TX-3', template: pytorch, templateVisible: true, containerDisk: 50,
      volume: { size: 500, path: '/workspace' }, createdAt: clusterCreated, terminatedAt: clusterEnd,
      activity: continuousActivity(clusterCreated, clusterEnd),
      cluster: { id: clusterId, rank, role: rank === 0 ? 'primary' : 'worker' },
    }),
  );
  const cluster: SimCluster = {
    id: clusterId, name: 'llama-pretrain', type: 'TRAINING', gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 4,
    podCount: 2, templateId: pytorch.id, dataCenterId: 'US-TX-3', createdAt: new Date(clusterCreated),
    terminatedAt: new Date(clusterEnd), memberPodIds: clusterPods.map((p) => p.id), diskPerPod: 550,
  };

  const card = catalogGpu('NVIDIA GeForce RTX 4090');
  const facts: PlantedFacts = {
    idleMinWorkersEndpoint: { id: idle.id, name: idle.name, workersMin: idle.workersMin, workerPrice: idle.workerPrice },
    unattachedVolume: { id: volume.id, name: volume.name, size: volume.size },
    exitedPodWithVolume: { id: exited.id, name: 'sd-finetune-old', stoppedAt: new Date(stoppedAt), volumeGb: 200 },
    secureCheaperOnCommunity: {
      id: secure.id, name: 'llm-inference-prod', gpuTypeId: card.id, gpuCount: 2,
      securePrice: card.price.secure!, communityPrice: card.price.community!,
    },
    spendSpike: { source: 'serverless', id: spiky.id, name: spiky.name, day: new Date(spikeDay), factor: 8 },
    terminatedPod: { id: terminated.id, name: 'batch-eval-h100', createdAt: new Date(batchCreated), terminatedAt: new Date(batchEnd) },
    renamedPod: { id: renamed.id, oldName: 'notebook-alice', newName: 'notebook-alice-a6000', renamedAt: new Date(renamedAt) },
    templateNullPod: { id: templateNull.id, name: 'jupyter-bob', templateId: pytorch.id, image: pytorch.image },
    cluster: { id: cluster.id, name: cluster.name, memberPodIds: cluster.memberPodIds },
    restatedPod: { id: secure.id },
  };
  return { pods: [secure, exited, terminated, renamed, templateNull], clusterPods, endpoints: [idle, spiky], volume, cluster, facts };
}
