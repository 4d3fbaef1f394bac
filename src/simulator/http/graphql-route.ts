// POST /graphql (billing-api-v2.md §4): key via `?api_key=` or the Bearer header, body {query, variables?,
// operationName?}, answer {data} or {errors: [{message}]} (HTTP 400 for syntax and validation errors). GraphQL is
// not rate limited here (the contract promises RateLimit headers on v2 only); `graphql=down` makes it answer 503.
import type { IncomingMessage } from 'node:http';
import { executeQuery } from '../graphql/execute.ts';
import { bearerKey, checkKey, type KeyRing } from './auth.ts';
import { readBody } from './read-body.ts';
import { jsonReply, problemReply, type Reply } from './reply.ts';
import type { Tenant } from './tenant.ts';

function parseJsonObject(raw: string | null): { query?: unknown; operationName?: unknown; variables?: unknown } | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function handleGraphQL(
  req: IncomingMessage,
  url: URL,
  deps: { tenantOf: (key: string) => Tenant; keys: KeyRing; now: () => number; down: () => boolean },
): Promise<Reply> {
  if (req.method !== 'POST') return problemReply(405, `${req.method} is not allowed on /graphql; use POST`, { headers: { Allow: 'POST' } });
  const header = bearerKey(req.headers.authorization);
  const auth = checkKey(deps.keys, url.searchParams.get('api_key') ?? (header === '' ? null : header));
  if (!auth.ok) return jsonReply(401, { errors: [{ message: auth.detail }] });
  if (deps.down()) return problemReply(503, 'the GraphQL API is unavailable (simulated outage)');
  const raw = await readBody(req);
  const body = parseJsonObject(raw);
  if (!body || typeof body.query !== 'string') {
    return jsonReply(400, { errors: [{ message: 'the body must be JSON {"query": "...", "variables"?: {...}} (at most 1 MiB)' }] });
  }
  const name = typeof body.operationName === 'string' ? body.operationName : null;
  const tenant = deps.tenantOf(auth.key);
  const variables = typeof body.variables === 'object' && body.variables !== null ? (body.variables as Record<string, unknown>) : undefined;
  const writes = { allowed: auth.mayWrite, ledger: tenant.ledger };
  const result = executeQuery({ query: body.query, operationName: name, variables }, tenant.account, deps.now(), { ...tenant.graphql, writes });
  return jsonReply(result.status, result.body);
}
