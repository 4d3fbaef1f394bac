// How long gpuledger waits for a remote, in one place (issue 18 §5: a server that accepts connections and never
// answers held a sync and its lock for 1,296 s – 60 s per attempt, eight attempts, for every request). An API answers
// in seconds or not at all, so each attempt has a deadline sized for an API, and a host that lets several attempts in
// a row run into theirs is given up on for the rest of the run (the breaker) instead of being retried request by
// request. The per-run budget on top of these lives in src/extract/run-budget.ts.
import { EXIT, GpuledgerError } from '../util/errors.ts';

export interface Timeouts {
  /** TCP connect and TLS handshake. */
  connectMs: number;
  /** From the request sent to the answer's status line and headers: the server's thinking time. */
  headersMs: number;
  /** The longest silence between two pieces of the body. */
  bodyMs: number;
}

/** Billing and inventory reads: a page of up to maxRecordsPerRequest records may take the server a while to build. */
export const API_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

/** Small answers that a healthy server gives at once: the GPU catalog that opens every account's sync (the probe). */
export const QUICK_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 10_000, bodyMs: 10_000 };

/** The Serverless queue's /health: one sample refines a job count, never worth holding a sync (balance-and-queue.md §3). */
export const QUEUE_HEALTH_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 5_000, bodyMs: 5_000 };

/** Consecutive attempts without an answer in time after which a host is given up on for the rest of the run. */
export const BREAKER_TIMEOUTS = 3;

/** A host stopped answering: its remaining requests in this run fail at once (exit 1; the sync ends partial). */
export class HostUnresponsiveError extends GpuledgerError {
  readonly host: string;
  constructor(what: string, host: string, timeouts: number) {
    super(
      'api_host_unresponsive',
      `${what}: ${host} let ${timeouts} requests in a row run out of time, so its other requests in this run are skipped; check that the host is up and reachable`,
      EXIT.failure,
    );
    this.host = host;
  }
}

/** One breaker per host (origin) for a whole run: every client and requester of the run shares it. */
export class HostBreakers {
  private readonly timeouts = new Map<string, number>();

  constructor(private readonly threshold = BREAKER_TIMEOUTS) {}

  /** Throws HostUnresponsiveError once `host` has let `threshold` attempts in a row run out of time. */
  check(host: string, what: string): void {
    if ((this.timeouts.get(host) ?? 0) >= this.threshold) throw new HostUnresponsiveError(what, host, this.threshold);
  }

  /** An attempt ran into a deadline. */
  timedOut(host: string): void {
    this.timeouts.set(host, (this.timeouts.get(host) ?? 0) + 1);
  }

  /** The host answered (any status): it is alive, whatever it said. */
  answered(host: string): void {
    if ((this.timeouts.get(host) ?? 0) < this.threshold) this.timeouts.set(host, 0);
  }

  /** Hosts given up on in this run. */
  open(): string[] {
    return [...this.timeouts].filter(([, n]) => n >= this.threshold).map(([host]) => host);
  }
}
