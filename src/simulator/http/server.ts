// The simulator's request pipeline for /v2 (billing-api-v2.md §1, §5):
//   authenticate (401, no RateLimit headers) → rate limit (429, quota untouched) → route (404, 405 + Allow) →
//   billing scope (403) → drawn faults (spurious 429, 5xx, reset, truncate, drift) → answer.
// Every authenticated answer carries RateLimit and RateLimit-Policy; latency delays every one of them.
// Writes (write-routes.ts) go: authenticate → rate limit → method (405) → write permission (403) → drawn write
// faults (429 not applied; `lost`: applied, then the connection resets before the answer) → applied.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { authenticate, type KeyRing } from './auth.ts';
import type { ConnectionFault, FaultInjector } from './faults.ts';
import { handleGraphQL } from './graphql-route.ts';
import type { RateLimiter } from './rate-limit.ts';
import { bodyLength, problemReply, type Reply } from './reply.ts';
import { HEALTH_PATH, healthRoute } from './queue-health.ts';
import { ROUTES } from './routes.ts';
import { readBody } from './read-body.ts';
import { matchWrite, writeBody, type WriteRoute } from './write-routes.ts';
import type { Tenant } from './tenant.ts';

export type { Tenant } from './tenant.ts';

export interface SimulatorStats {
  requests: number;
  /** Answers by HTTP status; a connection reset before any answer counts as 0. */
  byStatus: Record<number, number>;
  /** Requests by path as served (`/v2/billing/pods`, `/graphql`…); unknown paths as `(unmatched)`. */
  byRoute: Record<string, number>;
}

export interface ServerDeps {
  /** The account an authenticated key belongs to. */
  tenantOf(key: string): Tenant;
  now: () => number;
  keys: KeyRing;
  limiter: RateLimiter;
  faults: FaultInjector;
  sparse: boolean;
}

export function createSimulatorServer(deps: ServerDeps): { server: Server; stats: () => SimulatorStats } {
  const stats: SimulatorStats = { requests: 0, byStatus: {}, byRoute: {} };

  const send = (res: ServerResponse, reply: Reply, connection: ConnectionFault = 'none', delayMs = 0) => {
    const write = () => {
      if (res.destroyed) return;
      if (connection === 'reset-before') {
        stats.byStatus[0] = (stats.byStatus[0] ?? 0) + 1;
        res.socket?.resetAndDestroy();
        return;
      }
      stats.byStatus[reply.status] = (stats.byStatus[reply.status] ?? 0) + 1;
      const length = bodyLength(reply);
      // An origin server's Date is its clock (RFC 9110 §6.6.1): the simulated now, so clients that take the
      // platform's time from Date see the simulated account's present, not the wall clock's.
      res.sendDate = false;
      const date = new Date(deps.now()).toUTCString();
      res.writeHead(reply.status, { ...reply.headers, Date: date, 'Content-Length': String(length) });
      if (connection === 'none') {
        for (const chunk of reply.body) res.write(chunk);
        res.end();
        return;
      }
      // the promised Content-Length, then half the body, then the connection goes away
      const part = Buffer.concat(reply.body).subarray(0, Math.floor(length / 2));
      res.write(part, () => (connection === 'truncate' ? res.socket?.destroy() : res.socket?.resetAndDestroy()));
    };
    if (delayMs > 0) setTimeout(write, delayMs);
    else write();
  };

  const handleV2 = (req: IncomingMessage, path: string, url: URL): { reply: Reply; connection?: ConnectionFault; delay: number } => {
    const auth = authenticate(deps.keys, req.headers.authorization);
    if (!auth.ok) return { reply: problemReply(401, auth.detail, { headers: { 'WWW-Authenticate': 'Bearer' } }), delay: 0 };
    const delay = deps.faults.latencyMs();
    const peek = deps.limiter.peek(auth.key);
    if (peek.refusedBy) {
      const { window, retryAfter } = peek.refusedBy;
      const headers = { ...peek.headers, 'Retry-After': String(retryAfter) };
      return { reply: problemReply(429, `rate limit exceeded for the ${window} window`, { headers }), delay };
    }
    const tenant = deps.tenantOf(auth.key);
    const health = HEALTH_PATH.exec(path);
    const route = ROUTES.get(path) ?? (health ? healthRoute(health[1]!, tenant.queue) : undefined);
    const consumed = () => deps.limiter.consume(auth.key).headers;
    if (!route) return { reply: problemReply(404, `no route ${path}`, { headers: consumed() }), delay };
    if (!route.methods.includes(req.method ?? '')) {
      const headers = { ...consumed(), Allow: route.methods.join(', ') };
      return { reply: problemReply(405, `${req.method} is not allowed on ${path}`, { headers }), delay };
    }
    if (route.billing && auth.restricted) {
      return { reply: problemReply(403, 'this API key does not have the billing scope', { headers: consumed() }), delay };
    }
    const fault = deps.faults.decide(route.billing);
    if (fault.rateLimit) {
      const headers = { ...peek.headers, 'Retry-After': '1' };
      return { reply: problemReply(429, 'rate limit exceeded for the minute window', { headers }), delay };
    }
    const headers = consumed();
    if (fault.serverError) {
      const detail = fault.serverError === 503 ? 'the service is temporarily unavailable (simulated fault)' : 'internal error (simulated fault)';
      return { reply: problemReply(fault.serverError, detail, { headers }), connection: fault.connection, delay };
    }
    const reply = route.handle({ account: tenant.account, ledger: tenant.ledger, now: deps.now(), params: url.searchParams, sparse: deps.sparse, drift: fault.drift });
    Object.assign(reply.headers, headers);
    return { reply, connection: fault.connection, delay };
  };

  type Handled = { reply: Reply; connection?: ConnectionFault; delay: number };
  const handleWrite = async (req: IncomingMessage, route: WriteRoute, id: string): Promise<Handled> => {
    const auth = authenticate(deps.keys, req.headers.authorization);
    if (!auth.ok) return { reply: problemReply(401, auth.detail, { headers: { 'WWW-Authenticate': 'Bearer' } }), delay: 0 };
    const delay = deps.faults.latencyMs();
    const peek = deps.limiter.peek(auth.key);
    if (peek.refusedBy) {
      const { window, retryAfter } = peek.refusedBy;
      return { reply: problemReply(429, `rate limit exceeded for the ${window} window`, { headers: { ...peek.headers, 'Retry-After': String(retryAfter) } }), delay };
    }
    const consumed = () => deps.limiter.consume(auth.key).headers;
    if (req.method !== route.method) {
      return { reply: problemReply(405, `${req.method} is not allowed on ${route.key}`, { headers: { ...consumed(), Allow: route.method } }), delay };
    }
    const permission = route.key === '/v2/pods/{id}/action' ? 'pods: write' : 'serverless endpoints: write';
    if (!auth.mayWrite) return { reply: problemReply(403, `this API key does not have the permission ${permission}`, { headers: consumed() }), delay };
    const body = writeBody(await readBody(req));
    if (!body.ok) return { reply: body.reply, delay };
    const fault = deps.faults.decideWrite();
    if (fault.rateLimit) {
      return { reply: problemReply(429, 'rate limit exceeded for the minute window', { headers: { ...peek.headers, 'Retry-After': '1' } }), delay };
    }
    const headers = consumed();
    const tenant = deps.tenantOf(auth.key);
    const reply = route.apply({ account: tenant.account, ledger: tenant.ledger, now: deps.now() }, id, body.value);
    Object.assign(reply.headers, headers);
    // the write took effect; only its answer is lost on the way
    return { reply, connection: fault.lostAnswer && reply.status < 300 ? 'reset-before' : 'none', delay };
  };

  const server = createServer((req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? '/', 'http://simulator');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    const write = ROUTES.has(path) ? undefined : matchWrite(path);
    const routeKey = path === '/graphql' || ROUTES.has(path) ? path : write ? write.route.key : HEALTH_PATH.test(path) ? '/v2/{endpoint_id}/health' : '(unmatched)';
    stats.byRoute[routeKey] = (stats.byRoute[routeKey] ?? 0) + 1;
    const fail = (e: unknown) => send(res, problemReply(500, `simulator error: ${e instanceof Error ? e.message : String(e)}`));
    if (path === '/graphql') {
      handleGraphQL(req, url, { ...deps, down: deps.faults.graphqlDown }).then((reply) => send(res, reply), fail);
      return;
    }
    if (write) {
      handleWrite(req, write.route, write.id).then(({ reply, connection, delay }) => send(res, reply, connection, delay), fail);
      return;
    }
    try {
      const { reply, connection, delay } = handleV2(req, path, url);
      send(res, reply, connection, delay);
    } catch (e) {
      fail(e);
    }
  });
  return { server, stats: () => structuredClone(stats) };
}
