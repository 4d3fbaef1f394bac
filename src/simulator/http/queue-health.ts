// The Serverless queue API's GET /v2/{endpoint_id}/health (balance-and-queue.md §3), served beside the billing API
// on the same server: gpuledger's queue URL defaults to the API URL for anything but the platform. Job counters
// follow the endpoint's billed worker-hours (the ledger), so jobs per day rise and fall with its Serverless cost;
// `reset` makes a counter start again from 0, as a platform restart might (whether they are lifetime counts is [open]).
import type { SyntheticAccount } from '../account/types.ts';
import type { Ledger } from '../ledger/types.ts';
import { HOUR } from '../time.ts';
import { jsonReply, problemReply } from './reply.ts';
import type { Route } from './routes.ts';

/** A job takes ~40 s of a worker including cold start and idle overhead; 3 % fail, 1 % are retried (assumed). */
const JOBS_PER_WORKER_HOUR = 90;
const FAILED_SHARE = 0.03;
const RETRIED_SHARE = 0.01;

export interface QueueCounts {
  completed: number;
  failed: number;
  retried: number;
}

export interface QueueState {
  /** Counts at the last reset, per endpoint id: subtracted from what /health answers. */
  offsets: Map<string, QueueCounts>;
}

export const HEALTH_PATH = /^\/v2\/([A-Za-z0-9_-]+)\/health$/;

/**
 * Busy worker-hours of the endpoint from its creation to `now`: hour by hour, the billed GPU or CPU amount ÷ the
 * worker price, counting only hours in which more than workers.min were billed – the always-on minimum alone serves no
 * jobs, so an idle endpoint kept warm (planted fact a) has almost none and a high cost per job.
 */
function busyWorkerHours(account: SyntheticAccount, ledger: Ledger, id: string, now: number): number {
  const e = account.endpoints.find((x) => x.id === id)!;
  if (now <= e.createdAt.getTime()) return 0;
  const price = Math.round(e.workerPrice * 1e6);
  let hours = 0;
  for (const r of ledger.records('serverless', e.createdAt, new Date(now), 'hour', { resourceId: id, sparse: true })) {
    const a = r.amounts as Record<string, bigint>;
    const workerHours = Number((a.gpuAmount ?? 0n) + (a.cpuAmount ?? 0n)) / price;
    const start = Date.parse(r.startTime);
    const elapsed = Math.min(HOUR, now - start) / HOUR; // the open hour so far
    if (elapsed > 0 && workerHours / elapsed > e.workersMin + 1e-6) hours += workerHours;
  }
  return hours;
}

/** The lifetime counters at now, before any reset: the ground truth tests compare deltas with. */
export function lifetimeQueueCounts(account: SyntheticAccount, ledger: Ledger, id: string): QueueCounts {
  const jobs = busyWorkerHours(account, ledger, id, ledger.now().getTime()) * JOBS_PER_WORKER_HOUR;
  return { completed: Math.floor(jobs * (1 - FAILED_SHARE)), failed: Math.floor(jobs * FAILED_SHARE), retried: Math.floor(jobs * RETRIED_SHARE) };
}

export function healthRoute(id: string, state: QueueState): Route {
  return {
    methods: ['GET'],
    billing: null,
    handle({ account, ledger, now }) {
      const e = account.endpoints.find((x) => x.id === id);
      if (!e || e.createdAt.getTime() > now || (e.deletedAt && e.deletedAt.getTime() <= now)) {
        return problemReply(404, `no Serverless endpoint ${id}`);
      }
      const life = lifetimeQueueCounts(account, ledger, id);
      const off = state.offsets.get(id) ?? { completed: 0, failed: 0, retried: 0 };
      // gauges: the workers busy in the current hour, from its billed amount so far
      const hourStart = Math.floor(now / HOUR) * HOUR;
      const sofar = busyWorkerHours(account, ledger, id, now) - busyWorkerHours(account, ledger, id, hourStart);
      const running = Math.min(e.workersMax, Math.round(sofar / Math.max(1 / 3600, (now - hourStart) / HOUR)));
      return jsonReply(200, {
        jobs: { completed: life.completed - off.completed, failed: life.failed - off.failed, inProgress: running, inQueue: 0, retried: life.retried - off.retried },
        workers: { idle: Math.max(0, e.workersMin - running), initializing: 0, ready: Math.max(0, e.workersMin - running), running, throttled: 0 },
      });
    },
  };
}

/** Start the endpoint's counters again from 0 at the simulator's now. */
export function resetQueueCounters(account: SyntheticAccount, ledger: Ledger, state: QueueState, id: string): void {
  if (!account.endpoints.some((e) => e.id === id)) throw new RangeError(`no Serverless endpoint ${id} in the simulated account`);
  state.offsets.set(id, lifetimeQueueCounts(account, ledger, id));
}
