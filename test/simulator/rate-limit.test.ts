// Rate limits (billing-api-v2.md §5), in real time: RateLimit / RateLimit-Policy as structured-field lists on every
// authenticated v2 answer, 429 with Retry-After for the refusing window, refused requests not consuming quota.
import { parseList } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { get, graphql, withSimulator } from '../helpers/simulator-http.ts';

type Windows = Record<string, Record<string, number>>;

function parseWindows(header: string | null): Windows {
  expect(header).not.toBeNull();
  const out: Windows = {};
  for (const [name, params] of parseList(header!)) out[String(name)] = Object.fromEntries([...params].map(([k, v]) => [k, Number(v)]));
  return out;
}

/** Waits out the end of the current minute when fewer than 5 s are left, so a test's requests share one window. */
async function awayFromMinuteEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
}


describe('rate limits', () => {
  it('announces quota and remaining requests as structured fields', async () => {
    await withSimulator({ quotas: {} }, async (sim) => {
      await awayFromMinuteEnd();
      const a = await get(sim, '/v2/billing/pods?lastN=1');
      const policy = parseWindows(a.headers.get('ratelimit-policy'));
      expect(policy).toEqual({ minute: { q: 60, w: 60 }, hour: { q: 3000, w: 3600 }, day: { q: 50000, w: 86400 } });
      const state = parseWindows(a.headers.get('ratelimit'));
      expect(state.minute!.r).toBe(59);
      expect(state.hour!.r).toBe(2999);
      expect(state.day!.r).toBe(49999);
      expect(state.minute!.t).toBeGreaterThanOrEqual(1);
      expect(state.minute!.t).toBeLessThanOrEqual(60);
      expect(state.hour!.t).toBeLessThanOrEqual(3600);
      expect(state.day!.t).toBeLessThanOrEqual(86400);
    });
  });

  it('refuses request N+1 of a minute with 429, Retry-After within the window, without consuming quota', async () => {
    await withSimulator({ quotas: { minute: 3 } }, async (sim) => {
      await awayFromMinuteEnd();
      const remaining: number[] = [];
      for (let i = 0; i < 3; i++) {
        const a = await get(sim, '/v2/pods');
        expect(a.status).toBe(200);
        remaining.push(parseWindows(a.headers.get('ratelimit')).minute!.r!);
      }
      expect(remaining).toEqual([2, 1, 0]);
      const refused = await get(sim, '/v2/billing/pods');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body).toMatchObject({ status: 429, detail: 'rate limit exceeded for the minute window' });
      const windows = parseWindows(refused.headers.get('ratelimit'));
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(windows.minute!.t!);
      expect(windows.minute!.r).toBe(0);
      // the refused request consumed nothing
      expect(windows.hour!.r).toBe(2997);
      expect((await get(sim, '/v2/pods')).status).toBe(429);
      expect(parseWindows((await get(sim, '/v2/pods')).headers.get('ratelimit')).hour!.r).toBe(2997);
    });
  });

  it('names the hour window when the hour quota refuses', async () => {
    await withSimulator({ quotas: { hour: 2 } }, async (sim) => {
      await get(sim, '/v2/pods');
      await get(sim, '/v2/pods');
      const refused = await get(sim, '/v2/pods');
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe('rate limit exceeded for the hour window');
      expect(Number(refused.headers.get('retry-after'))).toBe(parseWindows(refused.headers.get('ratelimit')).hour!.t);
    });
  });

  it('counts keys separately and leaves GraphQL out', async () => {
    await withSimulator({ quotas: { minute: 2 } }, async (sim) => {
      await awayFromMinuteEnd();
      await get(sim, '/v2/pods');
      await graphql(sim, '{ myself { endpoints { id } } }');
      expect(parseWindows((await get(sim, '/v2/pods')).headers.get('ratelimit')).minute!.r).toBe(0);
      expect((await get(sim, '/v2/pods', 'sim-restricted-key')).status).toBe(200);
    });
  });
});
