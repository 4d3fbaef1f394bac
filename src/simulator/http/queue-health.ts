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

/** Worker-hours billed to the endpoint from its creation to `now` (GPU or CPU amount ÷ the worker price). */
function workerHours(account: SyntheticAccount, ledger: Ledger, id: string, now: Date): number {
  const e = account.endpoints.find((x) => x.id === id)!;
  if (now.getTime() <= e.createdAt.getTime()) return 0;
  const sums = ledger.sum({ source: 'serverless', start: e.createdAt, end: now, resourceId: id }) as Record<string, bigint>;
  const compute = Number((sums.gpuAmount ?? 0n) + (sums.cpuAmount ?? 0n));
  return compute / Math.round(e.workerPrice * 1e6);
}

/** The lifetime counters at now, before any reset: the ground truth tests compare deltas with. */
export function lifetimeQueueCounts(account: SyntheticAccount, ledger: Ledger, id: string): QueueCounts {
  const jobs = workerHours(account, ledger, id, ledger.now()) * JOBS_PER_WORKER_HOUR;
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
      const busy = Math.round(Math.max(0, workerHours(account, ledger, id, new Date(now)) - workerHours(account, ledger, id, new Date(hourStart))) * (HOUR / Math.max(1, now - hourStart)));
      const running = Math.min(e.workersMax, busy);
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
