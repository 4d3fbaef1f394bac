// Per-key rate limits in real time (billing-api-v2.md §5): fixed minute/hour/day windows aligned to the epoch
// (the day window to UTC midnight), announced on every authenticated v2 response as IETF structured-field lists
//   RateLimit:        "minute";r=57;t=12, "hour";r=2810;t=1812, "day";r=49500;t=45012
//   RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400
// A refused request (429) does not consume quota.
import { serializeList } from 'structured-headers';

export interface Quotas {
  minute: number;
  hour: number;
  day: number;
}

export const DEFAULT_QUOTAS: Quotas = { minute: 60, hour: 3000, day: 50_000 };
const WINDOWS = [
  { name: 'minute', seconds: 60 },
  { name: 'hour', seconds: 3600 },
  { name: 'day', seconds: 86_400 },
] as const;
export type WindowName = (typeof WINDOWS)[number]['name'];

export interface RateLimitState {
  headers: { RateLimit: string; 'RateLimit-Policy': string };
  /** The exhausted window that refuses the request (the one that resets last), or null. */
  refusedBy: { window: WindowName; retryAfter: number } | null;
}

export interface RateLimiter {
  /** The key's state without consuming quota. */
  peek(key: string): RateLimitState;
  /** Consumes one request from every window and returns the state after it. */
  consume(key: string): RateLimitState;
}

export function createRateLimiter(quotas: Quotas, wall: () => number = Date.now): RateLimiter {
  const used = new Map<string, { start: number; count: number }[]>();
  const policy = serializeList(WINDOWS.map((w) => [w.name, new Map([['q', quotas[w.name]], ['w', w.seconds]])]));

  const windowsOf = (key: string, now: number) => {
    let list = used.get(key);
    if (!list) used.set(key, (list = WINDOWS.map(() => ({ start: 0, count: 0 }))));
    WINDOWS.forEach((w, i) => {
      const start = Math.floor(now / (w.seconds * 1000)) * w.seconds * 1000;
      if (list[i]!.start !== start) list[i] = { start, count: 0 };
    });
    return list;
  };

  const state = (key: string): RateLimitState => {
    const now = wall();
    const list = windowsOf(key, now);
    let refusedBy: RateLimitState['refusedBy'] = null;
    const items = WINDOWS.map((w, i) => {
      const remaining = Math.max(0, quotas[w.name] - list[i]!.count);
      const reset = Math.max(1, Math.ceil((list[i]!.start + w.seconds * 1000 - now) / 1000));
      if (remaining === 0 && (refusedBy === null || reset > refusedBy.retryAfter)) refusedBy = { window: w.name, retryAfter: reset };
      return [w.name, new Map([['r', remaining], ['t', reset]])] as [string, Map<string, number>];
    });
    return { headers: { RateLimit: serializeList(items), 'RateLimit-Policy': policy }, refusedBy };
  };

  return {
    peek: state,
    consume(key) {
      for (const w of windowsOf(key, wall())) w.count++;
      return state(key);
    },
  };
}
