// The two writes the simulator carries out (platform-api-overview.md "Other REST v2 paths"): `POST
// /v2/pods/{id}/action` with {action} start, stop or restart, and `PATCH /v2/serverless/{id}` changing workersMin
// and workersMax. Each changes the account from the simulated now (account/changes.ts), so inventory and billing
// show it from then on. `terminate` is in the contract but never carried out here: nothing is ever deleted. Any
// other endpoint field is refused with 422, as an unknown property is (the contract's 422 rule).
import type { SyntheticAccount } from '../account/types.ts';
import { podRunningAt, setWorkers, startPod, stopPod } from '../account/changes.ts';
import type { LedgerInternal } from '../ledger/types.ts';
import { endpointView, podView } from './inventory.ts';
import { jsonReply, problemReply, type Reply } from './reply.ts';

export interface WriteRoute {
  /** How stats and messages name the route. */
  key: '/v2/pods/{id}/action' | '/v2/serverless/{id}';
  method: 'POST' | 'PATCH';
  apply(ctx: WriteContext, id: string, body: Record<string, unknown>): Reply;
}

export interface WriteContext {
  account: SyntheticAccount;
  ledger: LedgerInternal;
  now: number;
}

const alive = (created: Date, gone: Date | null, now: number) => created.getTime() <= now && (gone === null || gone.getTime() > now);

const podAction: WriteRoute = {
  key: '/v2/pods/{id}/action',
  method: 'POST',
  apply({ account, ledger, now }, id, body) {
    const pod = account.pods.find((p) => p.id === id && alive(p.createdAt, p.terminatedAt, now));
    if (!pod) return problemReply(404, `no pod ${id}`);
    const action = body.action;
    if (action !== 'start' && action !== 'stop' && action !== 'restart' && action !== 'terminate') {
      return problemReply(422, 'action must be one of start, stop, restart, terminate', { errors: ['action: expected start, stop, restart or terminate'] });
    }
    if (action === 'terminate') return problemReply(400, 'the simulator never terminates a pod');
    if (pod.cluster) return problemReply(400, `pod ${id} is a member of cluster ${pod.cluster.id}; its cluster runs it`);
    const horizon = account.horizonEnd.getTime();
    const running = podRunningAt(pod, now);
    // stopping a stopped pod, or starting a running one, changes nothing
    if (action === 'stop' && running) stopPod(pod, now, horizon);
    else if ((action === 'start' && !running) || action === 'restart') startPod(pod, now, horizon);
    ledger.resourceChanged(pod.id);
    return jsonReply(200, podView(pod, now));
  },
};

const WORKER_FIELDS = new Set(['workersMin', 'workersMax']);

const endpointUpdate: WriteRoute = {
  key: '/v2/serverless/{id}',
  method: 'PATCH',
  apply({ account, ledger, now }, id, body) {
    const e = account.endpoints.find((x) => x.id === id && alive(x.createdAt, x.deletedAt, now));
    if (!e) return problemReply(404, `no Serverless endpoint ${id}`);
    const others = Object.keys(body).filter((k) => !WORKER_FIELDS.has(k));
    if (others.length) {
      return problemReply(422, 'the simulator changes only workersMin and workersMax', { errors: others.map((k) => `${k}: not changed by this simulator`) });
    }
    const count = (k: string, current: number): number | string => {
      const v = body[k];
      if (v === undefined) return current;
      return Number.isInteger(v) && (v as number) >= 0 ? (v as number) : `${k}: expected an integer ≥ 0`;
    };
    const min = count('workersMin', e.workersMin);
    const max = count('workersMax', e.workersMax);
    const bad = [min, max].filter((x): x is string => typeof x === 'string');
    if (bad.length) return problemReply(422, 'invalid worker counts', { errors: bad });
    if ((min as number) > (max as number)) return problemReply(400, `workersMin (${min}) may not exceed workersMax (${max})`);
    if (min !== e.workersMin || max !== e.workersMax) {
      setWorkers(e, now, min as number, max as number);
      ledger.resourceChanged(e.id);
    }
    return jsonReply(200, endpointView(e));
  },
};

const PATTERNS: readonly (readonly [RegExp, WriteRoute])[] = [
  [/^\/v2\/pods\/([^/]+)\/action$/, podAction],
  [/^\/v2\/serverless\/([^/]+)$/, endpointUpdate],
];

/** The write route a path names, with the id in it; undefined for every other path. */
export function matchWrite(path: string): { route: WriteRoute; id: string } | undefined {
  for (const [re, route] of PATTERNS) {
    const m = re.exec(path);
    if (m) return { route, id: decodeURIComponent(m[1]!) };
  }
  return undefined;
}

/** A JSON object body, or the problem to answer. */
export function writeBody(raw: string | null): { ok: true; value: Record<string, unknown> } | { ok: false; reply: Reply } {
  if (raw === null) return { ok: false, reply: problemReply(400, 'the body must be a JSON object of at most 1 MiB') };
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return { ok: true, value: v as Record<string, unknown> };
  } catch {
    // answered below
  }
  return { ok: false, reply: problemReply(400, 'the body must be a JSON object') };
}

/** Shared by REST and GraphQL: new worker settings, or why not. */
export function updateWorkers(ctx: WriteContext, id: string, body: Record<string, unknown>): Reply {
  return endpointUpdate.apply(ctx, id, body);
}
