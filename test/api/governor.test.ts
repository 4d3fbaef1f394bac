// The rate-limit governor's arithmetic (billing-api-v2.md §5) with an injected clock: no test waits for real time.
import { describe, expect, it } from 'vitest';
import { parseRateLimit, RateLimitGovernor } from '../../src/api/index.ts';
import { manualClock } from '../helpers/scripted-server.ts';

/** The governor adds this after an announced reset (t is whole seconds; the server's clock is not ours). */
const MARGIN = 250;
const POLICY = '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400';

function governorAt() {
  const clock = manualClock();
  const governor = new RateLimitGovernor({ clock, initialRatePerSecond: 2 });
  return { clock, governor };
}

describe('parseRateLimit', () => {
  it('reads r and t per window and joins q and w from the policy by name', () => {
    const w = parseRateLimit('"minute";r=57;t=12, "hour";r=2810;t=1812', POLICY, 1000);
    expect(w).toEqual([
      { name: 'minute', remaining: 57, resetSeconds: 12, quota: 60, windowSeconds: 60, seenAt: 1000 },
      { name: 'hour', remaining: 2810, resetSeconds: 1812, quota: 3000, windowSeconds: 3600, seenAt: 1000 },
    ]);
  });

  it('ignores a header that is not a structured-field list, and members without r or t', () => {
    expect(parseRateLimit('minute r=5 (((', POLICY, 0)).toEqual([]);
    expect(parseRateLimit('"minute";r=5', undefined, 0)).toEqual([]);
  });
});

describe('RateLimitGovernor', () => {
  it('goes at the initial rate, one at a time, before any RateLimit header', async () => {
    const { clock, governor } = governorAt();
    await governor.acquire();
    expect(governor.delayMs()).toBe(500);
    await governor.acquire();
    await governor.acquire();
    expect(clock.slept).toEqual([500, 500]);
  });

  it('spreads the requests left over the time left in a window', async () => {
    const { clock, governor } = governorAt();
    await governor.acquire();
    governor.observe('"minute";r=10;t=30', POLICY);
    expect(governor.delayMs()).toBe(3000); // 30 s / 10 requests
    clock.advance(1000);
    expect(governor.delayMs()).toBe(2000);
    clock.advance(5000);
    expect(governor.delayMs()).toBe(0);
  });

  it('paces by the tightest of several windows (minute, hour, day)', async () => {
    const { governor } = governorAt();
    await governor.acquire();
    governor.observe('"minute";r=50;t=30, "hour";r=100;t=3000, "day";r=49000;t=86000', POLICY);
    // minute: 600 ms apart, hour: 30 s apart, day: ~1.8 s apart – the hour decides
    expect(governor.delayMs()).toBe(30_000);
  });

  it('waits until the reset of a window with r=0, then forgets the stale figures', async () => {
    const { clock, governor } = governorAt();
    await governor.acquire();
    governor.observe('"minute";r=0;t=12, "hour";r=2000;t=1800', POLICY);
    expect(governor.delayMs()).toBe(12_000 + MARGIN);
    await governor.acquire();
    expect(clock.slept).toEqual([12_000 + MARGIN]);
    // the minute window has reset since; only the hour's pacing (1800 s / 2000) applies to the next request
    expect(governor.delayMs()).toBe(900);
  });

  it('after a 429 sends nothing before Retry-After', async () => {
    const { clock, governor } = governorAt();
    await governor.acquire();
    governor.observe('"minute";r=5;t=50', POLICY);
    expect(governor.refused(30)).toBe(30_000 + MARGIN);
    clock.advance(12_000); // past the pacing interval (50 s / 5 = 10 s), still inside Retry-After
    expect(governor.delayMs()).toBe(18_000 + MARGIN);
    clock.advance(18_000 + MARGIN);
    expect(governor.delayMs()).toBe(0);
  });

  it('after a 429 waits for the largest reset among exhausted windows, not only Retry-After', async () => {
    const { clock, governor } = governorAt();
    await governor.acquire();
    governor.observe('"minute";r=0;t=10, "hour";r=0;t=1800, "day";r=100;t=40000', POLICY);
    expect(governor.refused(10)).toBe(1_800_000 + MARGIN);
    await governor.acquire();
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBe(1_800_000 + MARGIN);
  });

  it('waits one second after a 429 without Retry-After', async () => {
    const { governor } = governorAt();
    governor.observe('"minute";r=3;t=40', POLICY);
    expect(governor.refused(undefined)).toBe(1000 + MARGIN);
    expect(governor.delayMs()).toBe(1000 + MARGIN);
  });

  it('serves concurrent callers in order, each waiting its interval', async () => {
    const { clock, governor } = governorAt();
    await governor.acquire();
    governor.observe('"minute";r=4;t=8', POLICY);
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((i) => governor.acquire().then(() => order.push(i))));
    expect(order).toEqual([1, 2, 3]);
    expect(clock.slept).toEqual([2000, 2000, 2000]);
  });
});
