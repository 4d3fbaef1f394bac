// The GPU catalog of the synthetic account (GET /v2/catalog/gpus, billing-api-v2.md §3): realistic ids, pools and
// list prices in USD per GPU-hour. Ids are kept byte-exact, including the double space in `NVIDIA RTX  A6000`
// that the real catalog has and clients must not normalise away.

export const GPU_POOLS = ['AMPERE_16', 'AMPERE_24', 'ADA_24', 'AMPERE_48', 'ADA_48_PRO', 'AMPERE_80', 'ADA_80_PRO'] as const;
export type GpuPool = (typeof GPU_POOLS)[number];

export interface CatalogGpu {
  id: string;
  name: string;
  pool: GpuPool | null;
  manufacturer: 'Nvidia' | 'AMD';
  /** GB of GPU memory. */
  memory: number;
  secure: boolean;
  community: boolean;
  price: { secure: number | null; community: number | null; serverless?: number };
  maxCount: { secure: number; community: number };
}

const gpu = (
  id: string,
  name: string,
  pool: GpuPool | null,
  memory: number,
  secure: number | null,
  community: number | null,
  serverless: number | undefined,
  maxCount: [number, number],
  manufacturer: CatalogGpu['manufacturer'] = 'Nvidia',
): CatalogGpu => ({
  id,
  name,
  pool,
  manufacturer,
  memory,
  secure: secure !== null,
  community: community !== null,
  price: serverless === undefined ? { secure, community } : { secure, community, serverless },
  maxCount: { secure: secure === null ? 0 : maxCount[0], community: community === null ? 0 : maxCount[1] },
});

export const GPU_CATALOG: readonly CatalogGpu[] = [
  gpu('NVIDIA RTX A4000', 'RTX A4000', 'AMPERE_16', 16, 0.25, 0.17, 0.58, [8, 8]),
  gpu('NVIDIA RTX A5000', 'RTX A5000', 'AMPERE_24', 24, 0.27, 0.16, 0.69, [8, 8]),
  gpu('NVIDIA GeForce RTX 4090', 'RTX 4090', 'ADA_24', 24, 0.69, 0.34, 1.1, [8, 8]),
  gpu('NVIDIA L4', 'L4', 'ADA_24', 24, 0.43, null, 0.69, [8, 0]),
  gpu('NVIDIA RTX  A6000', 'RTX A6000', 'AMPERE_48', 48, 0.49, 0.33, 1.22, [8, 8]),
  gpu('NVIDIA L40S', 'L40S', 'ADA_48_PRO', 48, 0.86, 0.79, 1.9, [8, 4]),
  gpu('NVIDIA RTX 6000 Ada Generation', 'RTX 6000 Ada', 'ADA_48_PRO', 48, 0.77, 0.74, 1.9, [8, 4]),
  gpu('NVIDIA A100 80GB PCIe', 'A100 PCIe', 'AMPERE_80', 80, 1.64, 1.19, 2.72, [8, 8]),
  gpu('NVIDIA A100-SXM4-80GB', 'A100 SXM', 'AMPERE_80', 80, 1.74, 1.39, 2.72, [8, 8]),
  gpu('NVIDIA H100 80GB HBM3', 'H100 SXM', 'ADA_80_PRO', 80, 2.69, 2.39, 4.18, [8, 8]),
  gpu('NVIDIA H100 PCIe', 'H100 PCIe', 'ADA_80_PRO', 80, 2.39, 1.99, 4.18, [8, 8]),
  gpu('NVIDIA H200', 'H200 SXM', null, 141, 3.99, null, undefined, [8, 0]),
  gpu('AMD Instinct MI300X OAM', 'MI300X', null, 192, 2.49, null, undefined, [8, 0], 'AMD'),
];

/** The GPU whose Serverless price a pool is billed at (the pool's reference card). */
export const POOL_REFERENCE_GPU: Record<GpuPool, string> = {
  AMPERE_16: 'NVIDIA RTX A4000',
  AMPERE_24: 'NVIDIA RTX A5000',
  ADA_24: 'NVIDIA GeForce RTX 4090',
  AMPERE_48: 'NVIDIA RTX  A6000',
  ADA_48_PRO: 'NVIDIA L40S',
  AMPERE_80: 'NVIDIA A100 80GB PCIe',
  ADA_80_PRO: 'NVIDIA H100 80GB HBM3',
};

export function catalogGpu(id: string): CatalogGpu {
  const found = GPU_CATALOG.find((g) => g.id === id);
  if (!found) throw new RangeError(`no GPU '${id}' in the simulator catalog`);
  return found;
}

/** CPU flavours for CPU pods and CPU endpoints: USD per vCPU-hour. */
export const CPU_FLAVORS = [
  { id: 'cpu3c', pricePerVcpu: 0.03 },
  { id: 'cpu5c', pricePerVcpu: 0.04 },
] as const;
