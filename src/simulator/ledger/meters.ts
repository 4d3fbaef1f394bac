// Meters: one per billed resource (and one for the public-endpoint usage series). A meter says how much a resource
// accrues within one hour, before rounding – activity fraction × rate (× seasonality × noise for usage-driven
// resources). The ledger rounds each hour to micro-dollars once and derives every answer from those hours.
import { catalogGpu } from '../account/catalog.ts';
import { firstEndingAfter } from '../account/activity.ts';
import { workerSegments } from '../account/changes.ts';
import { RUNNING, type PublicEndpointUsage, type SimCluster, type SimEndpoint, type SimPod, type SimVolume, type SyntheticAccount } from '../account/types.ts';
import { hashUnit, saltFor } from '../prng.ts';
import { DAY, HOUR, HOURS_PER_MONTH } from '../time.ts';
import type { FamilySource } from './sources.ts';

export interface Meter {
  source: FamilySource;
  /** The record id; null for the id-less public-endpoint series. */
  id: string | null;
  /** Bounds (ms, hour-aligned) outside which the meter accrues nothing. */
  from: number;
  to: number;
  restated: boolean;
  /** Salt for this meter's noise and restatement draws. */
  salt: number;
  /** Adds the unrounded micro-dollars accrued in [hourStart, cutoff) – cutoff ≤ hourStart + 1 h – to out[0..k). */
  accrue(hourStart: number, cutoff: number, out: Float64Array): void;
}

const MICROS = 1e6;
/** Pod container and volume disk: $0.10/GB/month running, $0.20/GB/month for a stopped pod's volume (§6). */
const DISK_RUNNING = (0.1 * MICROS) / HOURS_PER_MONTH;
const DISK_STOPPED = (0.2 * MICROS) / HOURS_PER_MONTH;
/** Instant Cluster networking, per GPU-hour (assumed; the contract names the component only). */
const CLUSTER_NETWORKING_PER_GPU = 0.02 * MICROS;
/** Serverless fee on FlashBoot endpoints, as a share of worker compute (assumed; §2 names the field only). */
const FLASHBOOT_FEE_SHARE = 0.02;

const hourBounds = (from: number, to: number) => ({ from: Math.floor(from / HOUR) * HOUR, to: Math.ceil(to / HOUR) * HOUR });
const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** A meter active over one span [start, end): `accrue` gets the part of the hour the span covers (0 < f ≤ 1). */
function spanMeter(
  meter: Pick<Meter, 'source' | 'id' | 'restated' | 'salt'>,
  start: number,
  end: number,
  accrue: (f: number, hourStart: number, out: Float64Array) => void,
): Meter {
  return {
    ...meter,
    ...hourBounds(start, end),
    accrue(h, cutoff, out) {
      const f = overlap(start, end, h, cutoff) / HOUR;
      if (f > 0) accrue(f, h, out);
    },
  };
}

/** Network volume $/GB/month: STANDARD $0.07 under 1 TB and $0.05 above (§6); HIGH_PERFORMANCE twice that (assumed). */
export function volumeMonthlyRate(v: Pick<SimVolume, 'size' | 'type'>): number {
  const standard = v.size > 1000 ? 0.05 : 0.07;
  return v.type === 'STANDARD' ? standard : standard * 2;
}

function podMeter(pod: SimPod, restated: boolean, salt: number, horizonEnd: number): Meter {
  const compute = Math.round(pod.computePrice * MICROS);
  const gpu = pod.gpu ? compute : 0;
  const cpu = pod.gpu ? 0 : compute;
  const runDisk = (pod.containerDisk + (pod.volume?.size ?? 0)) * DISK_RUNNING;
  const stopDisk = (pod.volume?.size ?? 0) * DISK_STOPPED;
  return {
    source: 'pods',
    id: pod.id,
    ...hourBounds(pod.createdAt.getTime(), Math.min(horizonEnd, pod.terminatedAt?.getTime() ?? horizonEnd)),
    restated,
    salt,
    accrue(h, cutoff, out) {
      // read at each call: a stop or start (account/changes.ts) replaces the activity from its moment on
      const a = pod.activity;
      const n = a.starts.length;
      for (let i = firstEndingAfter(a, h); i < n && a.starts[i]! < cutoff; i++) {
        const f = overlap(a.starts[i]!, a.ends[i]!, h, cutoff) / HOUR;
        if (a.states[i] === RUNNING) {
          out[0]! += f * gpu;
          out[1]! += f * cpu;
          out[2]! += f * runDisk;
        } else {
          out[2]! += f * stopDisk;
        }
      }
    },
  };
}

interface Rhythm {
  peakHour: number;
  weekendFactor: number;
  growthPerYear: number;
}

/** Daily wave (UTC), weekend dip, growth since history start, day-level and hour-level noise. */
function usageFactor(r: Rhythm, salt: number, h: number, historyStart: number): number {
  const hourIndex = h / HOUR;
  const day = Math.floor(h / DAY);
  const hod = hourIndex - day * 24;
  const shape = 0.25 + 0.75 * (0.5 + 0.5 * Math.cos((2 * Math.PI * (hod - r.peakHour)) / 24));
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday
  const week = weekday === 0 || weekday === 6 ? r.weekendFactor : 1;
  const trend = 1 + (r.growthPerYear * (h - historyStart)) / (365 * DAY);
  const dayNoise = 0.85 + 0.3 * hashUnit(salt ^ 0x5bd1e995, day);
  const hourNoise = 0.7 + 0.6 * hashUnit(salt, hourIndex);
  return shape * week * trend * dayNoise * hourNoise;
}

function endpointMeter(e: SimEndpoint, restated: boolean, salt: number, account: SyntheticAccount): Meter {
  const created = e.createdAt.getTime();
  const gone = Math.min(account.horizonEnd.getTime(), e.deletedAt?.getTime() ?? Infinity);
  const historyStart = account.historyStart.getTime();
  const workerMicros = Math.round(e.workerPrice * MICROS);
  const gpu = e.pools ? workerMicros : 0;
  const cpu = e.pools ? 0 : workerMicros;
  const disk = e.containerDisk * DISK_RUNNING;
  const fee = e.flashboot === 'OFF' ? 0 : FLASHBOOT_FEE_SHARE;
  const overhead = Math.min(0.5, e.idleTimeout / 300); // idle workers bill until the idle timeout (§6)
  const spikeFrom = e.spike ? e.spike.day.getTime() : -1;
  const spikeTo = spikeFrom + DAY;
  return {
    source: 'serverless',
    id: e.id,
    restated,
    salt,
    ...hourBounds(created, gone),
    accrue(h, cutoff, out) {
      const a = Math.max(created, h);
      const b = Math.min(gone, cutoff);
      if (b <= a) return;
      let demand = e.traffic.peakWorkers * usageFactor(e.traffic, salt, h, historyStart);
      if (h >= spikeFrom && h < spikeTo) demand *= e.spike!.factor;
      if (demand < e.traffic.idleThreshold) demand = 0; // scaled to zero: no requests this hour
      // the settings in effect over each part of the hour: a change (account/changes.ts) applies from its moment
      for (const s of workerSegments(e, a, b)) {
        const f = s.ms / HOUR;
        // workers.min > 0 keeps that many workers billed around the clock (§6)
        const workers = Math.max(s.min, Math.min(s.max, demand * (1 + overhead)));
        out[0]! += f * workers * gpu;
        out[1]! += f * workers * cpu;
        out[2]! += f * workers * disk;
        out[3]! += f * workers * (gpu + cpu) * fee;
      }
    },
  };
}

function volumeMeter(v: SimVolume, salt: number, horizonEnd: number): Meter {
  const created = v.createdAt.getTime();
  const gone = Math.min(horizonEnd, v.deletedAt?.getTime() ?? Infinity);
  const rate = (v.size * volumeMonthlyRate(v) * MICROS) / HOURS_PER_MONTH;
  const slot = v.type === 'STANDARD' ? 0 : 1;
  return spanMeter({ source: 'network-volumes', id: v.id, restated: false, salt }, created, gone, (f, _h, out) => {
    out[slot]! += f * rate;
  });
}

function clusterMeter(c: SimCluster, restated: boolean, salt: number, horizonEnd: number): Meter {
  const created = c.createdAt.getTime();
  const gone = Math.min(horizonEnd, c.terminatedAt?.getTime() ?? Infinity);
  const gpus = c.podCount * c.gpuCountPerPod;
  const gpu = gpus * Math.round((catalogGpu(c.gpuTypeId).price.secure ?? 0) * MICROS);
  const disk = c.podCount * c.diskPerPod * DISK_RUNNING;
  const networking = gpus * CLUSTER_NETWORKING_PER_GPU;
  return spanMeter({ source: 'clusters', id: c.id, restated, salt }, created, gone, (f, _h, out) => {
    out[0]! += f * gpu;
    out[1]! += f * disk;
    out[2]! += f * networking;
  });
}

function publicEndpointMeter(p: PublicEndpointUsage, salt: number, account: SyntheticAccount): Meter {
  const started = p.startedAt.getTime();
  const horizon = account.horizonEnd.getTime();
  const historyStart = account.historyStart.getTime();
  const rhythm: Rhythm = { peakHour: 16, weekendFactor: 0.5, growthPerYear: 0.8 };
  const peak = p.peakUsdPerHour * MICROS;
  return spanMeter({ source: 'endpoints', id: null, restated: false, salt }, started, horizon, (f, h, out) => {
    out[0]! += f * peak * usageFactor(rhythm, salt, h, historyStart);
  });
}

/** Every meter of the account. Cluster member pods have none of their own: the cluster meter bills them. */
export function createMeters(account: SyntheticAccount): Meter[] {
  const horizon = account.horizonEnd.getTime();
  const salt = (name: string) => saltFor(account.seed, name);
  const restated = (id: string) => account.restatedIds.has(id);
  return [
    ...account.pods.filter((p) => p.cluster === null).map((p) => podMeter(p, restated(p.id), salt(p.id), horizon)),
    ...account.endpoints.map((e) => endpointMeter(e, restated(e.id), salt(e.id), account)),
    ...account.volumes.map((v) => volumeMeter(v, salt(v.id), horizon)),
    ...account.clusters.map((c) => clusterMeter(c, restated(c.id), salt(c.id), horizon)),
    ...account.publicEndpoints.map((p) => publicEndpointMeter(p, salt(`public:${p.model}`), account)),
  ];
}
