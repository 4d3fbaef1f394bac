// The one way gpuledger talks to the platform: undici with keep-alive, Bearer auth and deadlines on connect, headers
// and body (deadlines.ts); every attempt paced by the rate-limit governor and checked against its host's breaker;
// the body read whole and checked against Content-Length; after a failure retry-policy.ts decides – retry with
// bounded, jittered backoff, wait for the rate-limit window, or fail with a typed error. Route functions (billing.ts,
// inventory.ts, graphql.ts) only build paths and read answers.
import { Pool } from 'undici';
import type { GpuledgerError } from '../util/errors.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { redact, registerSecret } from '../util/secrets.ts';
import { VERSION } from '../version.ts';
import { checkApiUrl, displayUrl } from './api-url.ts';
import { header, networkFailure, readAnswer, type AnswerContext, type ApiAnswer, type Failure } from './answer.ts';
import { API_TIMEOUTS, HostBreakers, type Timeouts } from './deadlines.ts';
import { ApiArgumentError, ApiTransportError, ApiUnavailableError, ApiWriteUnknownError } from './errors.ts';
import { RateLimitGovernor, realClock, type Clock } from './governor.ts';
import { FAILURE_DECISIONS } from './retry-policy.ts';
import type { UrlSource } from './url-source.ts';

export interface RequesterOptions {
  baseUrl: string;
  /** Never logged, never in any message. */
  apiKey: string;
  /** The variable the key came from: what messages name. */
  apiKeyEnv: string;
  log?: Logger;
  /** Retries for 5xx, resets, truncated bodies and timeouts (429s have their own, larger budget). */
  maxRetries?: number;
  /** Waits for a 429's window before giving up (default 20). */
  maxRateLimited?: number;
  /** Default: API_TIMEOUTS (deadlines.ts). */
  timeouts?: Partial<Timeouts>;
  /** The run's per-host breakers, shared by every requester of a sync; default: this requester's own. */
  breakers?: HostBreakers;
  /** Which setting chose baseUrl, for messages about a wrong URL (default --api-url). */
  source?: UrlSource;
  /** Pace before the first RateLimit headers arrive. */
  initialRatePerSecond?: number;
  /** Connections to the host, and so requests in flight at once (default 4). */
  connections?: number;
  clock?: Clock;
}

export interface ApiCall {
  /** How messages name the request, e.g. `GET /v2/billing/pods [start, end) day`. */
  what: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** How a 2xx body becomes the answer's `json` (default JSON.parse). Throwing a SyntaxError marks the body as not
   * complete JSON, which is retried like a cut-off answer; billing answers are split, not parsed (billing-body.ts). */
  readBody?: (body: Buffer) => unknown;
  /** This call's deadlines for the answer, when they differ from the requester's (a small answer: QUICK_TIMEOUTS). */
  timeouts?: Partial<Pick<Timeouts, 'headersMs' | 'bodyMs'>>;
  /**
   * A write to the platform (a pod action, an endpoint update): sent at most once. A 429 is waited out and sent
   * again (the platform refused it, nothing happened); any failure after which it may have taken effect – a timeout,
   * a reset, a cut-off answer, a 5xx – is never repeated blindly but thrown as ApiWriteUnknownError, for the caller
   * to settle by reading the resource back.
   */
  write?: boolean;
}

export type { ApiAnswer } from './answer.ts';

export interface ApiStats {
  requests: number;
  retries: number;
  rateLimited: number;
  bytes: number;
}

type Attempt = { answer: ApiAnswer } | Failure;

const MAX_RATE_LIMITED = 20;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 10_000;
// RFC 9110 field-value: visible characters, spaces and tabs inside, no CR/LF/NUL; undici's Pool leaks a connection
// slot on every request it refuses for such a value (undici 7.30: the fifth one hangs with nothing keeping the
// process alive – exit 13), so the value is checked here before undici sees it.
const HEADER_VALUE = /^[^\s\x00-\x1f\x7f](?:[^\x00-\x08\x0a-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$/;

export class ApiRequester {
  readonly stats: ApiStats = { requests: 0, retries: 0, rateLimited: 0, bytes: 0 };
  readonly governor: RateLimitGovernor;
  /** The base URL as messages show it (no credentials). */
  readonly url: string;
  private readonly pool: Pool | undefined;
  private readonly unusable: GpuledgerError | undefined;
  private readonly prefix: string;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly maxRetries: number;
  private readonly maxRateLimited: number;
  private readonly breakers: HostBreakers;
  /** host:port, the breaker's key. */
  private readonly host: string;
  private readonly context: AnswerContext;
  private readonly auth: string;
  private lastServerDate: Date | undefined;

  constructor(private readonly options: RequesterOptions) {
    registerSecret(options.apiKey);
    this.auth = `Bearer ${options.apiKey}`;
    this.clock = options.clock ?? realClock;
    this.governor = new RateLimitGovernor({ initialRatePerSecond: options.initialRatePerSecond, clock: this.clock });
    this.log = options.log ?? silentLogger;
    this.maxRetries = options.maxRetries ?? 6;
    this.maxRateLimited = options.maxRateLimited ?? MAX_RATE_LIMITED;
    this.breakers = options.breakers ?? new HostBreakers();
    // a bad URL or key is reported by the first request, not here: callers construct clients outside their
    // error handling (one per account) and must still get a typed, recorded failure
    let url: URL | undefined;
    try {
      url = checkApiUrl(options.baseUrl);
      if (!HEADER_VALUE.test(options.apiKey)) {
        throw new ApiArgumentError(`requests to ${displayUrl(url)}`, `the API key in ${options.apiKeyEnv} contains whitespace or a control character`);
      }
    } catch (e) {
      this.unusable = e as GpuledgerError;
    }
    this.url = displayUrl(url ?? options.baseUrl);
    this.host = url?.host ?? this.url;
    this.context = { url: this.url, apiKeyEnv: options.apiKeyEnv, source: options.source };
    this.prefix = url ? url.pathname.replace(/\/+$/, '') : '';
    const t = { ...API_TIMEOUTS, ...options.timeouts };
    this.pool = url
      ? new Pool(url.origin, {
          connections: options.connections ?? 4,
          keepAliveTimeout: 30_000,
          headersTimeout: t.headersMs,
          bodyTimeout: t.bodyMs,
          connect: { timeout: t.connectMs },
        })
      : undefined;
  }

  /** The platform's clock (its last Date header): "now" for planning, never the local clock. */
  serverTime(): Date | undefined {
    return this.lastServerDate;
  }

  async request(call: ApiCall): Promise<ApiAnswer> {
    let transient = 0;
    let limited = 0;
    if (this.unusable || !this.pool) throw this.unusable;
    for (;;) {
      // a host that let several attempts in a row run out of time is not asked again in this run (deadlines.ts)
      this.breakers.check(this.host, call.what);
      await this.governor.acquire();
      this.stats.requests++;
      const attempt = await this.attempt(this.pool, call);
      if (!('answer' in attempt) && attempt.kind === 'timeout') {
        this.breakers.timedOut(this.host);
        this.breakers.check(this.host, call.what); // the last straw: no backoff, no retry counted
      } else if ('answer' in attempt || attempt.kind === undefined) this.breakers.answered(this.host);
      if ('answer' in attempt) return attempt.answer;
      const { decision, error } = attempt;
      if (decision.action === 'fail') throw error;
      if (call.write && decision.action === 'retry') throw new ApiWriteUnknownError(call.what, redact(attempt.reason), { cause: error });
      const attempts = transient + limited + 1;
      const unavailable = () => new ApiUnavailableError(call.what, attempts, redact(attempt.reason), { cause: error });
      if (decision.action === 'wait') {
        this.stats.rateLimited++;
        if (++limited > this.maxRateLimited) throw unavailable();
        const wait = this.governor.refused(attempt.retryAfterSeconds);
        this.log.debug(`${call.what}: ${redact(attempt.reason)} (${decision.reason}); waiting ${Math.round(wait)} ms`);
        continue;
      }
      if (++transient > this.maxRetries) throw unavailable();
      this.stats.retries++;
      this.log.debug(`${call.what}: ${redact(attempt.reason)} (${decision.reason}); retry ${transient}/${this.maxRetries}`);
      // full jitter: anywhere between 0 and the exponential step, so many clients never retry in lockstep
      await this.clock.sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (transient - 1)));
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }

  /** One attempt: an answer, or the failure with what the policy decides about it. */
  private async attempt(pool: Pool, call: ApiCall): Promise<Attempt> {
    const { what } = call;
    let status: number;
    let body: Buffer;
    let headers: Record<string, string | string[] | undefined>;
    try {
      const res = await pool.request({
        method: call.method,
        path: this.prefix + call.path + (call.query ? `?${new URLSearchParams(call.query).toString()}` : ''),
        headers: {
          authorization: this.auth,
          'user-agent': `gpuledger/${VERSION}`,
          accept: 'application/json',
          ...(call.body ? { 'content-type': 'application/json' } : {}),
        },
        body: call.body,
        signal: call.signal,
        ...(call.timeouts?.headersMs !== undefined ? { headersTimeout: call.timeouts.headersMs } : {}),
        ...(call.timeouts?.bodyMs !== undefined ? { bodyTimeout: call.timeouts.bodyMs } : {}),
      });
      status = res.statusCode;
      headers = res.headers;
      // bytes, not text: a billing body goes to DuckDB as it arrived, and decoding 50 MB to a string costs time
      body = Buffer.from(await res.body.arrayBuffer());
    } catch (e) {
      if (call.signal?.aborted) throw e;
      return networkFailure(this.context, what, e);
    }
    const bytes = body.length;
    const length = header(headers, 'content-length');
    if (length !== undefined && Number(length) !== bytes) {
      const reason = `truncated body (${bytes} of ${length} bytes)`;
      return { decision: FAILURE_DECISIONS['truncated-body'], error: new ApiTransportError(what, reason), reason };
    }
    this.stats.bytes += bytes;
    this.governor.observe(header(headers, 'ratelimit'), header(headers, 'ratelimit-policy'));
    const date = header(headers, 'date');
    if (date) {
      const d = new Date(date);
      if (!Number.isNaN(d.getTime())) this.lastServerDate = d;
    }
    return readAnswer(this.context, what, call.path, status, headers, body, call.readBody);
  }
}
