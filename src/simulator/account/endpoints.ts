// Serverless endpoints of the synthetic account: created from Serverless templates (the template id is visible only
// through GraphQL), on GPU pools or CPU, with traffic that has a daily and weekly rhythm and grows over time.
import { DAY, MINUTE, floorTo } from '../time.ts';
import { CPU_FLAVORS, POOL_REFERENCE_GPU, catalogGpu, type GpuPool } from './catalog.ts';
import { DATA_CENTERS, type GenContext } from './context.ts';
import type { EndpointTraffic, SimEndpoint, SimTemplate } from './types.ts';

const POOLS_BY_IMAGE: readonly (readonly [RegExp, readonly (readonly GpuPool[])[]])[] = [
  [/vllm/, [['AMPERE_80', 'ADA_80_PRO'], ['ADA_48_PRO', 'AMPERE_48']]],
  [/sdxl/, [['ADA_24', 'AMPERE_24']]],
  [/whisper/, [['AMPERE_16', 'AMPERE_24']]],
  [/embedding/, [['AMPERE_16']]],
  [/comfy/, [['ADA_48_PRO'], ['AMPERE_48']]],
];

export interface EndpointSpec {
  name: string;
  template: SimTemplate;
  pools: GpuPool[] | null;
  gpuCount: number;
  workersMin: number;
  workersMax: number;
  idleTimeout: number;
  flashboot: SimEndpoint['flashboot'];
  createdAt: number;
  deletedAt: number | null;
  traffic: EndpointTraffic;
  spike?: SimEndpoint['spike'];
  type?: SimEndpoint['type'];
}

export function endpointFromSpec(ctx: GenContext, spec: EndpointSpec): SimEndpoint {
  const { rng } = ctx;
  const cpu = spec.pools === null ? { id: `${CPU_FLAVORS[1].id}-4-8`, vcpuCount: 4, memory: 8 } : null;
  const workerPrice = spec.pools
    ? (Math.round((catalogGpu(POOL_REFERENCE_GPU[spec.pools[0]!]).price.serverless ?? 0) * 1e6) * spec.gpuCount) / 1e6
    : CPU_FLAVORS[1].pricePerVcpu * 4;
  const dc = rng.pick(DATA_CENTERS);
  return {
    id: ctx.newId(14),
    name: spec.name,
    type: spec.type ?? 'QUEUE',
    templateId: spec.template.id,
    pools: spec.pools,
    gpuCount: spec.gpuCount,
    cpu,
    workersMin: spec.workersMin,
    workersMax: spec.workersMax,
    idleTimeout: spec.idleTimeout,
    scaling: rng.chance(0.7) ? { type: 'QUEUE_DELAY', queueDelay: 4 } : { type: 'REQUEST_COUNT', requestCount: rng.int(1, 5) },
    dataCenterIds: rng.chance(0.5) ? [dc] : [...DATA_CENTERS],
    locations: rng.chance(0.5) ? dc.slice(0, 2) : '',
    networkVolumeIds: [],
    timeout: 600_000,
    flashboot: spec.flashboot,
    image: spec.template.image,
    args: spec.template.args,
    containerDisk: spec.template.disk,
    env: { ...spec.template.env },
    ports: [...spec.template.ports],
    createdAt: new Date(spec.createdAt),
    deletedAt: spec.deletedAt === null ? null : new Date(spec.deletedAt),
    traffic: spec.traffic,
    spike: spec.spike ?? null,
    workerPrice,
  };
}

export function createRandomEndpoint(ctx: GenContext, index: number, templates: readonly SimTemplate[]): SimEndpoint {
  const { rng } = ctx;
  const template = rng.pick(templates.filter((t) => t.serverless));
  const poolChoices = POOLS_BY_IMAGE.find(([re]) => re.test(template.image))?.[1];
  const pools = template.category === 'CPU' ? null : [...rng.pick(poolChoices ?? [['ADA_24', 'AMPERE_24']])];
  const createdAt = ctx.creationTime(0.08);
  let deletedAt: number | null = rng.chance(0.2) ? floorTo(createdAt + rng.between(30, 200) * DAY, MINUTE) : null;
  if (deletedAt !== null && deletedAt >= ctx.horizonEnd) deletedAt = null;
  const warm = rng.chance(0.15);
  const base = template.name.replace(/^worker-/, '').replace(/\s+/g, '-').toLowerCase();
  return endpointFromSpec(ctx, {
    name: `${base}-${String(index + 1).padStart(2, '0')}`,
    template,
    pools,
    gpuCount: pools && pools[0]!.endsWith('80') && rng.chance(0.2) ? 2 : 1,
    // warm endpoints carry real traffic, so the planted idle one stays the only idle one
    workersMin: warm ? 1 : 0,
    workersMax: rng.int(3, 12),
    idleTimeout: rng.pick([5, 5, 10, 30, 60]),
    flashboot: rng.pick(['OFF', 'FLASHBOOT', 'FLASHBOOT', 'PRIORITY_FLASHBOOT'] as const),
    createdAt,
    deletedAt,
    traffic: {
      peakWorkers: warm ? rng.between(2, 4) : rng.between(0.3, 3),
      peakHour: rng.int(12, 22),
      weekendFactor: rng.between(0.4, 0.9),
      growthPerYear: rng.between(0.2, 1.5),
      idleThreshold: rng.between(0.05, 0.15),
    },
    type: rng.chance(0.15) ? 'LOAD_BALANCER' : 'QUEUE',
  });
}
