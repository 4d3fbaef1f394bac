// The rate-limit governor. Every authenticated answer carries `RateLimit` (r = requests left, t = seconds to the
// window's reset) and `RateLimit-Policy` (q = quota, w = window length) as structured-field lists (billing-api-v2.md
// §5). The governor spaces requests so that, in every window, the requests left are spread over the time left:
// the quota is used to the full and never exceeded. Before the first answer it knows nothing, so it goes slowly
// and one at a time. A 429 is answered by waiting for the largest reset among exhausted windows (at least
// Retry-After).
import { parseList, type BareItem, type Parameters } from 'structured-headers';

export interface WindowState {
  name: string;
  /** Requests left when last seen. */
  remaining: number;
  /** Seconds until reset when last seen. */
  resetSeconds: number;
  quota?: number;
  windowSeconds?: number;
  /** Local time (ms) the figures were read. */
  seenAt: number;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

function windowName(item: BareItem): string {
  return typeof item === 'string' ? item : String(item);
}

function numberParam(params: Parameters, key: string): number | undefined {
  const v = params.get(key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** `"minute";r=57;t=12, …` → windows; a header that does not parse is ignored (pacing falls back to caution). */
export function parseRateLimit(rateLimit: string | undefined, policy: string | undefined, seenAt: number): WindowState[] {
  const byName = new Map<string, WindowState>();
  try {
    for (const member of rateLimit ? parseList(rateLimit) : []) {
      if (Array.isArray(member[0])) continue; // inner lists are not part of this header
      const [item, params] = member as [BareItem, Parameters];
      const r = numberParam(params, 'r');
      const t = numberParam(params, 't');
      if (r === undefined || t === undefined) continue;
      byName.set(windowName(item), { name: windowName(item), remaining: r, resetSeconds: t, seenAt });
    }
    for (const member of policy ? parseList(policy) : []) {
      if (Array.isArray(member[0])) continue;
      const [item, params] = member as [BareItem, Parameters];
      const w = byName.get(windowName(item));
      if (!w) continue;
      w.quota = numberParam(params, 'q');
      w.windowSeconds = numberParam(params, 'w');
    }
  } catch {
    return [];
  }
  return [...byName.values()];
}

export interface GovernorOptions {
  /** Requests per second before any RateLimit header was seen. */
  initialRatePerSecond?: number;
  clock?: Clock;
}

/** Margin after a window's announced reset: its t is whole seconds, the server's clock is not ours. */
const RESET_MARGIN_MS = 250;

export class RateLimitGovernor {
  private windows: WindowState[] = [];
  private lastSentAt = 0;
  private notBefore = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly initialIntervalMs: number;
  private readonly clock: Clock;
  private seenHeaders = false;

  constructor(options: GovernorOptions = {}) {
    this.initialIntervalMs = 1000 / (options.initialRatePerSecond ?? 1);
    this.clock = options.clock ?? realClock;
  }

  /** The delay the next request must wait, from what the last answer said. */
  delayMs(): number {
    const now = this.clock.now();
    let wait = Math.max(0, this.notBefore - now);
    if (!this.seenHeaders) return Math.max(wait, this.lastSentAt + this.initialIntervalMs - now);
    for (const w of this.windows) {
      const resetAt = w.seenAt + w.resetSeconds * 1000 + RESET_MARGIN_MS;
      if (now >= resetAt) continue; // the window has reset since: its figures are stale
      if (w.remaining <= 0) {
        wait = Math.max(wait, resetAt - now);
        continue;
      }
      // spread what is left over the time left
      const interval = (w.resetSeconds * 1000) / w.remaining;
      wait = Math.max(wait, this.lastSentAt + interval - now);
    }
    return Math.max(0, wait);
  }

  /** Wait for this request's turn; calls are served in order, one decision at a time. */
  acquire(): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        const d = this.delayMs();
        if (d <= 0) break;
        await this.clock.sleep(d);
      }
      this.lastSentAt = this.clock.now();
    });
    // an unseen answer must not let the next request through: before the first headers, one at a time
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Feed the headers of any answer (successes, 4xx, 429). */
  observe(rateLimit: string | undefined, policy: string | undefined): void {
    const windows = parseRateLimit(rateLimit, policy, this.clock.now());
    if (windows.length === 0) return;
    this.windows = windows;
    this.seenHeaders = true;
  }

  /** After a 429: nothing is sent before max(Retry-After, the largest reset among exhausted windows). Returns the wait in ms. */
  refused(retryAfterSeconds: number | undefined): number {
    const now = this.clock.now();
    let wait = (retryAfterSeconds ?? 1) * 1000;
    for (const w of this.windows) if (w.remaining <= 0) wait = Math.max(wait, w.resetSeconds * 1000);
    wait += RESET_MARGIN_MS;
    this.notBefore = Math.max(this.notBefore, now + wait);
    return wait;
  }

  snapshot(): WindowState[] {
    return this.windows.map((w) => ({ ...w }));
  }
}
