// Authentication and error answers (billing-api-v2.md §1, §5): 401 without RateLimit headers, 403 for a key without
// the billing scope, 404 and 405 as problem+json with RateLimit headers (they are authenticated answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { get, NOW } from '../helpers/simulator-http.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ now: NOW });
});
afterAll(() => sim.close());

const rawGet = (path: string, headers: Record<string, string>) =>
  fetch(sim.url + path, { headers }).then(async (r) => ({ r, body: (await r.json()) as Record<string, unknown> }));

describe('auth and errors', () => {
  it.each([
    ['missing', {}],
    ['malformed', { Authorization: 'Token sim-demo-key' }],
    ['unknown', { Authorization: 'Bearer not-a-key' }],
  ])('answers a %s key with 401 problem+json and no RateLimit headers', async (_, headers) => {
    const { r, body } = await rawGet('/v2/billing/pods', headers);
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toBe('application/problem+json');
    expect(body).toMatchObject({ title: 'Unauthorized', status: 401 });
    expect(typeof body.detail).toBe('string');
    expect(r.headers.get('ratelimit')).toBeNull();
    expect(r.headers.get('ratelimit-policy')).toBeNull();
  });

  it('answers a restricted key with 403 on billing routes, with RateLimit headers, and 200 on inventory', async () => {
    for (const route of ['/v2/billing', '/v2/billing/pods', '/v2/billing/networkvolumes']) {
      const a = await get(sim, route, 'sim-restricted-key');
      expect(a.status).toBe(403);
      expect(a.body).toMatchObject({ title: 'Forbidden', status: 403 });
      expect(a.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+/);
    }
    expect((await get(sim, '/v2/pods', 'sim-restricted-key')).status).toBe(200);
  });

  it('answers an unknown path with 404 problem+json', async () => {
    const a = await get(sim, '/v2/billing/gpus');
    expect(a.status).toBe(404);
    expect(a.headers.get('content-type')).toBe('application/problem+json');
    expect(a.body).toMatchObject({ title: 'Not Found', status: 404 });
    expect(a.headers.get('ratelimit-policy')).toBe('"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400');
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const r = await fetch(sim.url + '/v2/billing/pods', { method: 'POST', headers: { Authorization: 'Bearer sim-demo-key' } });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
    expect(await r.json()).toMatchObject({ status: 405 });
    const g = await fetch(sim.url + '/graphql?api_key=sim-demo-key');
    expect(g.status).toBe(405);
    expect(g.headers.get('allow')).toBe('POST');
    await g.arrayBuffer();
  });

  it('counts requests by status and route', async () => {
    const before = sim.stats();
    await get(sim, '/v2/pods');
    await get(sim, '/v2/nowhere');
    const after = sim.stats();
    expect(after.requests).toBe(before.requests + 2);
    expect(after.byRoute['/v2/pods']).toBe((before.byRoute['/v2/pods'] ?? 0) + 1);
    expect(after.byRoute['(unmatched)']).toBe((before.byRoute['(unmatched)'] ?? 0) + 1);
    expect(after.byStatus[404]).toBe((before.byStatus[404] ?? 0) + 1);
  });
});
