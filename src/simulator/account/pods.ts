// Pods of the synthetic account: a mix of always-on services, business-hours dev pods, batch jobs and interactive
// sessions on a realistic spread of GPUs and both clouds, some created from templates (with or without the link).
import { DAY, MINUTE, floorTo } from '../time.ts';
import { continuousActivity, devActivity, serviceActivity, sessionsActivity } from './activity.ts';
import { CPU_FLAVORS, catalogGpu } from './catalog.ts';
import { DATA_CENTERS, type GenContext } from './context.ts';
import type { Activity, Cloud, PodKind, SimPod, SimTemplate } from './types.ts';

const GPU_MIX: readonly (readonly [string | null, number])[] = [
  ['NVIDIA GeForce RTX 4090', 25],
  ['NVIDIA RTX A5000', 14],
  ['NVIDIA RTX  A6000', 12],
  ['NVIDIA L40S', 9],
  ['NVIDIA A100 80GB PCIe', 10],
  ['NVIDIA H100 80GB HBM3', 6],
  ['NVIDIA RTX A4000', 8],
  ['NVIDIA RTX 6000 Ada Generation', 4],
  [null, 10], // a CPU pod
];

const PEOPLE = ['alice', 'bob', 'carol', 'dan', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'niaj', 'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yara'];
const NAMES: Record<Exclude<PodKind, 'cluster-member'>, readonly string[]> = {
  service: ['vllm-serve', 'api-backend', 'tgi-inference', 'comfy-studio', 'rag-index', 'triton-serve', 'whisper-live'],
  dev: ['jupyter', 'dev', 'workspace'],
  batch: ['finetune-llama', 'eval-harness', 'sd-train', 'data-prep', 'embed-backfill', 'rl-sweep', 'lora-train'],
  sessions: ['sandbox', 'research', 'notebook', 'prototype'],
};

export interface PodSpec {
  name: string;
  kind: PodKind;
  gpu: { id: string; count: number } | null;
  cloud: Cloud;
  dataCenterId: string;
  template: SimTemplate | null;
  templateVisible: boolean;
  image?: string;
  containerDisk: number;
  volume: { size: number; path: string } | null;
  createdAt: number;
  terminatedAt: number | null;
  activity: Activity;
  cluster?: SimPod['cluster'];
}

/** A pod from a spec: price from the catalog (GPU × count on its cloud) or the CPU flavour. */
export function podFromSpec(ctx: GenContext, spec: PodSpec): SimPod {
  const cpu = spec.gpu ? null : { id: `${CPU_FLAVORS[0].id}-4-8`, vcpuCount: 4, memory: 8 };
  const unitPrice = spec.gpu
    ? (spec.cloud === 'SECURE' ? catalogGpu(spec.gpu.id).price.secure : catalogGpu(spec.gpu.id).price.community)
    : CPU_FLAVORS[0].pricePerVcpu * 4;
  if (unitPrice === null) throw new RangeError(`${spec.gpu?.id} is not offered on ${spec.cloud}`);
  const count = spec.gpu?.count ?? 1;
  return {
    id: ctx.newId(14),
    names: [{ name: spec.name, from: new Date(spec.createdAt) }],
    kind: spec.kind,
    gpu: spec.gpu,
    cpu,
    cloud: spec.cloud,
    dataCenterId: spec.dataCenterId,
    image: spec.template?.image ?? spec.image ?? 'ghcr.io/acme-ml/custom:latest',
    args: spec.template?.args ?? '',
    env: spec.template ? { ...spec.template.env } : {},
    ports: spec.template ? [...spec.template.ports] : ['22/tcp'],
    containerDisk: spec.containerDisk,
    volume: spec.volume,
    networkVolumeIds: [],
    templateId: spec.template?.id ?? null,
    templateVisible: spec.template !== null && spec.templateVisible,
    createdAt: new Date(spec.createdAt),
    terminatedAt: spec.terminatedAt === null ? null : new Date(spec.terminatedAt),
    activity: spec.activity,
    cluster: spec.cluster ?? null,
    // integer micro-dollars first, so 2 × $0.69 is exactly $1.38
    computePrice: (Math.round(unitPrice * 1e6) * count) / 1e6,
  };
}

/** One ordinary pod; `index` only makes its name unique. */
export function createRandomPod(ctx: GenContext, index: number, templates: readonly SimTemplate[]): SimPod {
  const { rng } = ctx;
  const kind = rng.weighted<Exclude<PodKind, 'cluster-member'>>([['service', 30], ['dev', 25], ['batch', 25], ['sessions', 20]]);
  const gpuId = rng.weighted(GPU_MIX);
  const gpu = gpuId === null ? null : { id: gpuId, count: rng.weighted([[1, 70], [2, 20], [4, 8], [8, 2]]) };
  const card = gpuId === null ? null : catalogGpu(gpuId);
  const cloud: Cloud = card && card.community && rng.chance(0.45) ? 'COMMUNITY' : 'SECURE';
  const candidates = templates.filter((t) => !t.serverless && (t.category === 'CPU') === (gpu === null));
  const template = candidates.length && rng.chance(0.65) ? rng.pick(candidates) : null;
  const createdAt = ctx.creationTime(0.1);
  const lifeDays = { service: [15, 200], dev: [20, 150], batch: [0.125, 10], sessions: [7, 120] }[kind];
  const endsChance = { service: 0.3, dev: 0.45, batch: 1, sessions: 0.55 }[kind];
  let terminatedAt: number | null = rng.chance(endsChance) ? floorTo(createdAt + rng.between(lifeDays[0]!, lifeDays[1]!) * DAY, MINUTE) : null;
  if (terminatedAt !== null && terminatedAt >= ctx.horizonEnd) terminatedAt = null;
  const end = terminatedAt ?? ctx.horizonEnd;
  const activity =
    kind === 'service' ? serviceActivity(rng, createdAt, end)
    : kind === 'dev' ? devActivity(rng.int(1, 2 ** 30), createdAt, end)
    : kind === 'sessions' ? sessionsActivity(rng, createdAt, end)
    : continuousActivity(createdAt, end);
  const base = rng.pick(NAMES[kind]);
  const name = kind === 'dev' ? `${base}-${PEOPLE[index % PEOPLE.length]}` : base;
  return podFromSpec(ctx, {
    name: `${name}-${String(index + 1).padStart(2, '0')}`,
    kind,
    gpu,
    cloud,
    dataCenterId: rng.pick(DATA_CENTERS),
    template,
    templateVisible: rng.chance(0.5),
    image: `ghcr.io/acme-ml/${base}:${rng.int(1, 9)}.${rng.int(0, 20)}`,
    containerDisk: 5 * rng.int(2, 10),
    volume: gpu && rng.chance(0.7) ? { size: 10 * rng.int(2, 30), path: '/workspace' } : null,
    createdAt,
    terminatedAt,
    activity,
  });
}
