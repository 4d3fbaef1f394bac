// The synthetic account: every resource the simulator bills and lists, with its whole life (creation, activity,
// renames, termination) anchored at absolute times computed from the initial now. Inventory routes show the
// account as of the simulated now; billing routes meter it (src/simulator/ledger/).
import type { CatalogGpu, GpuPool } from './catalog.ts';

export type Scale = 'small' | 'medium' | 'large';
export type Cloud = 'SECURE' | 'COMMUNITY';

/** Sorted, non-overlapping intervals [start, end) in epoch ms; state 1 = running, 2 = stopped (EXITED). */
export interface Activity {
  starts: Float64Array;
  ends: Float64Array;
  states: Uint8Array;
}
export const RUNNING = 1;
export const STOPPED = 2;

export interface SimTemplate {
  id: string;
  name: string;
  image: string;
  args: string;
  disk: number;
  env: Record<string, string>;
  ports: string[];
  registry: string | null;
  mounts: { persistent?: { size: number; path: string } };
  serverless: boolean;
  public: boolean;
  category: 'CPU' | 'NVIDIA' | 'AMD';
  startSsh: boolean;
  startJupyter: boolean;
  allowedCudaVersions: string[];
}

export type PodKind = 'service' | 'dev' | 'batch' | 'sessions' | 'cluster-member';

export interface SimPod {
  id: string;
  /** Name history, oldest first: `name` applies from `from` (the first entry's `from` is createdAt). */
  names: { name: string; from: Date }[];
  kind: PodKind;
  gpu: { id: string; count: number } | null;
  cpu: { id: string; vcpuCount: number; memory: number } | null;
  cloud: Cloud;
  dataCenterId: string;
  image: string;
  args: string;
  env: Record<string, string>;
  ports: string[];
  /** Container disk, GB (billed while running only). */
  containerDisk: number;
  /** Persistent pod volume (billed while running and, at the stopped rate, while EXITED). */
  volume: { size: number; path: string } | null;
  networkVolumeIds: string[];
  /** The template the pod was really created from (truth, for tests). */
  templateId: string | null;
  /** Whether `/v2/pods` shows the template id; false reproduces the platform's missing link (billing-api-v2.md §3). */
  templateVisible: boolean;
  createdAt: Date;
  terminatedAt: Date | null;
  activity: Activity;
  cluster: { id: string; rank: number; role: 'primary' | 'worker' } | null;
  /** Compute price in USD/hour while running (GPU price × count, or vCPU price) – the inventory `cost`. */
  computePrice: number;
}

export interface EndpointTraffic {
  /** Busy workers at the daily peak, before trend and noise. */
  peakWorkers: number;
  /** UTC hour of the daily peak. */
  peakHour: number;
  weekendFactor: number;
  /** Relative growth per year (0.5 = +50 % a year). */
  growthPerYear: number;
  /** Demand below this many workers scales to zero (no requests). */
  idleThreshold: number;
}

export interface SimEndpoint {
  id: string;
  name: string;
  type: 'QUEUE' | 'LOAD_BALANCER';
  templateId: string;
  /** GPU pools, preferred first; null for a CPU endpoint. */
  pools: GpuPool[] | null;
  gpuCount: number;
  cpu: { id: string; vcpuCount: number; memory: number } | null;
  workersMin: number;
  workersMax: number;
  idleTimeout: number;
  scaling: { type: 'QUEUE_DELAY'; queueDelay: number } | { type: 'REQUEST_COUNT'; requestCount: number };
  dataCenterIds: string[];
  locations: string;
  networkVolumeIds: string[];
  timeout: number;
  flashboot: 'OFF' | 'FLASHBOOT' | 'PRIORITY_FLASHBOOT';
  image: string;
  args: string;
  containerDisk: number;
  env: Record<string, string>;
  ports: string[];
  createdAt: Date;
  deletedAt: Date | null;
  traffic: EndpointTraffic;
  /** A day (UTC) whose demand is multiplied by `factor` – planted fact (e). */
  spike: { day: Date; factor: number } | null;
  /** USD per worker-hour: the pool's Serverless price × GPU count, or the vCPU price. */
  workerPrice: number;
  /**
   * The worker settings in effect before each change a client made (PATCH /v2/serverless/{id}, saveEndpoint), oldest
   * first: `min`/`max` applied until `until` (ms). workersMin/workersMax are the settings since the last change.
   */
  workerHistory?: { until: number; min: number; max: number }[];
}

export interface SimVolume {
  id: string;
  name: string;
  size: number;
  dataCenter: string;
  type: 'STANDARD' | 'HIGH_PERFORMANCE';
  createdAt: Date;
  deletedAt: Date | null;
}

export interface SimCluster {
  id: string;
  name: string;
  type: 'APPLICATION' | 'TRAINING' | 'SLURM' | 'RAY';
  gpuTypeId: string;
  gpuCountPerPod: number;
  podCount: number;
  templateId: string | null;
  dataCenterId: string;
  createdAt: Date;
  terminatedAt: Date | null;
  memberPodIds: string[];
  /** Per member pod, GB: container disk + persistent volume (billed as clusterDiskAmount). */
  diskPerPod: number;
}

/** The usage of public model endpoints (GET /v2/billing/endpoints): one id-less hourly series. */
export interface PublicEndpointUsage {
  model: string;
  startedAt: Date;
  /** USD per hour at the daily peak, before trend and noise. */
  peakUsdPerHour: number;
}

export interface ServerlessDiscount {
  discountFactor: number;
  type: 'SERVERLESS';
  expirationDate: string;
}

/** Facts planted in every scale so reports and alerts have something true to find (ids for tests). */
export interface PlantedFacts {
  /** (a) workers.min > 0 and almost no traffic: billed around the clock. */
  idleMinWorkersEndpoint: { id: string; name: string; workersMin: number; workerPrice: number };
  /** (b) attached to no pod and no endpoint. */
  unattachedVolume: { id: string; name: string; size: number };
  /** (c) EXITED since `stoppedAt`, still paying for its volume at the stopped rate. */
  exitedPodWithVolume: { id: string; name: string; stoppedAt: Date; volumeGb: number };
  /** (d) SECURE at list price; the same GPU is clearly cheaper on COMMUNITY in the catalog. */
  secureCheaperOnCommunity: { id: string; name: string; gpuTypeId: string; gpuCount: number; securePrice: number; communityPrice: number };
  /** (e) one UTC day on which this Serverless endpoint costs about `factor` × its usual day. */
  spendSpike: { source: 'serverless'; id: string; name: string; day: Date; factor: number };
  /** (f) terminated, with bills in the 60 days before the initial now; gone from /v2/pods. */
  terminatedPod: { id: string; name: string; createdAt: Date; terminatedAt: Date };
  /** A pod renamed at `renamedAt` (after the initial now, so a later inventory read sees the new name). */
  renamedPod: { id: string; oldName: string; newName: string; renamedAt: Date };
  /** Created from a template, but /v2/pods shows `template: null`; its image equals the template's image. */
  templateNullPod: { id: string; name: string; templateId: string; image: string };
  /** The Instant Cluster; its member pods are billed under /v2/billing/clusters only. */
  cluster: { id: string; name: string; memberPodIds: string[] };
  /** A pod (always running) whose recent closed hours are restated: preliminary, then final an hour later. */
  restatedPod: { id: string };
}

export interface SyntheticAccount {
  seed: number;
  scale: Scale;
  /** The now the history is anchored at (the clock's start). */
  initialNow: Date;
  /** First billed hour: the initial now's UTC day − days. */
  historyStart: Date;
  /** Nothing is billed from here on: the initial now's UTC day + 91 days. */
  horizonEnd: Date;
  gpus: readonly CatalogGpu[];
  templates: SimTemplate[];
  /** Every pod ever created, including cluster members and terminated pods. */
  pods: SimPod[];
  endpoints: SimEndpoint[];
  volumes: SimVolume[];
  clusters: SimCluster[];
  publicEndpoints: PublicEndpointUsage[];
  serverlessDiscount: ServerlessDiscount | null;
  /** Ids whose closed hours are reported as preliminary figures during their first hour (restatement). */
  restatedIds: ReadonlySet<string>;
  planted: PlantedFacts;
}
