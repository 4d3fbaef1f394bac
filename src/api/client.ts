// The platform API client: undici with keep-alive, Bearer auth, timeouts on connect, headers and body; every request
// paced by the rate-limit governor; 5xx, resets, truncated bodies and timeouts retried with bounded, jittered
// exponential backoff; 401/403/4xx never retried; every answer validated against the contract before anyone sees it.
import { Pool } from 'undici';
import type { z } from 'zod';
import { formatRfc3339, type BucketSize } from '../util/buckets.ts';
import { numberToMicros } from '../util/decimal.ts';
import { errorMessage } from '../util/errors.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { redact, registerSecret } from '../util/secrets.ts';
import { VERSION } from '../version.ts';
import { ApiAuthError, ApiForbiddenError, ApiGraphqlError, ApiRequestError, ApiResponseError, ApiUnavailableError, type Problem } from './errors.ts';
import { RateLimitGovernor, realClock, type Clock } from './governor.ts';
import {
  BILLING_AMOUNT_FIELDS,
  BILLING_ID_FIELD,
  BILLING_PATHS,
  billingResponseSchema,
  describeIssue,
  GRAPHQL_QUERY,
  graphqlResponseSchema,
  INVENTORY_ROUTES,
  inventoryResponseSchema,
  OLD_NETWORK_VOLUMES_PATH,
  problemSchema,
  type BillingRoute,
  type InventoryKind,
} from './schemas.ts';

export interface ApiClientOptions {
  baseUrl: string;
  /** Never logged, never in any message. */
  apiKey: string;
  /** The variable the key came from: what messages name. */
  apiKeyEnv: string;
  log?: Logger;
  /** Retries for 5xx, resets, truncated bodies and timeouts (429s have their own, larger budget). */
  maxRetries?: number;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Pace before the first RateLimit headers arrive. */
  initialRatePerSecond?: number;
  clock?: Clock;
}

export interface ApiStats {
  requests: number;
  retries: number;
  rateLimited: number;
  bytes: number;
}

export interface BillingQuery {
  startTime: Date;
  endTime: Date;
  bucketSize: BucketSize;
}

export interface BillingRecord {
  startTime: Date;
  endTime: Date;
  id: string | null;
  /** Micro-dollars by API field name. */
  amounts: Record<string, bigint>;
}

export interface BillingPage {
  route: BillingRoute;
  path: string;
  /** The window as the server resolved it (metadata.query). */
  query: { startTime: Date; endTime: Date; bucketSize: BucketSize };
  records: BillingRecord[];
  totals: Record<string, bigint>;
  recordCount: number;
  bytes: number;
}

export interface QuotaWindow {
  name: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

const MAX_RATE_LIMITED = 20;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 10_000;

class Retryable extends Error {}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export class ApiClient {
  readonly stats: ApiStats = { requests: 0, retries: 0, rateLimited: 0, bytes: 0 };
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly governor: RateLimitGovernor;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly maxRetries: number;
  private readonly auth: string;
  private networkVolumesPath = BILLING_PATHS['network-volumes'];
  private lastServerDate: Date | undefined;

  constructor(private readonly options: ApiClientOptions) {
    registerSecret(options.apiKey);
    const url = new URL(options.baseUrl);
    this.prefix = url.pathname.replace(/\/+$/, '');
    const t = options.timeouts ?? {};
    this.pool = new Pool(url.origin, {
      connections: 4,
      keepAliveTimeout: 30_000,
      headersTimeout: t.headersMs ?? 60_000,
      bodyTimeout: t.bodyMs ?? 120_000,
      connect: { timeout: t.connectMs ?? 10_000 },
    });
    this.clock = options.clock ?? realClock;
    this.governor = new RateLimitGovernor({ initialRatePerSecond: options.initialRatePerSecond, clock: this.clock });
    this.log = options.log ?? silentLogger;
    this.maxRetries = options.maxRetries ?? 6;
    this.auth = `Bearer ${options.apiKey}`;
  }

  /** The platform's clock (its last Date header): "now" for planning, never the local clock. */
  serverTime(): Date | undefined {
    return this.lastServerDate;
  }

  quota(): { windows: QuotaWindow[] } | undefined {
    const windows = this.governor.snapshot().filter((w) => w.quota !== undefined && w.windowSeconds !== undefined);
    if (windows.length === 0) return undefined;
    return {
      windows: windows.map((w) => ({ name: w.name, quota: w.quota!, windowSeconds: w.windowSeconds!, remaining: w.remaining, resetSeconds: w.resetSeconds })),
    };
  }

  /** One cheap call (the GPU catalog) so that the platform's time and quota are known. */
  async probe(signal?: AbortSignal): Promise<void> {
    await this.request('GET /v2/catalog/gpus', 'GET', INVENTORY_ROUTES.gpus.path, undefined, undefined, signal);
  }

  async billing(route: BillingRoute, query: BillingQuery, signal?: AbortSignal): Promise<BillingPage> {
    const params = { startTime: formatRfc3339(query.startTime), endTime: formatRfc3339(query.endTime), bucketSize: query.bucketSize };
    const window = `[${params.startTime}, ${params.endTime}) ${params.bucketSize}`;
    let path = route === 'network-volumes' ? this.networkVolumesPath : BILLING_PATHS[route];
    let answer: { json: unknown; bytes: number };
    try {
      answer = await this.request(`GET ${path} ${window}`, 'GET', path, params, undefined, signal);
    } catch (e) {
      if (route === 'network-volumes' && path !== OLD_NETWORK_VOLUMES_PATH && e instanceof ApiRequestError && e.status === 404) {
        // the route's spelling until August 2026: an older deployment may still only know that one
        this.log.warn(`${path} answered 404; using the older spelling ${OLD_NETWORK_VOLUMES_PATH}`);
        this.networkVolumesPath = path = OLD_NETWORK_VOLUMES_PATH;
        answer = await this.request(`GET ${path} ${window}`, 'GET', path, params, undefined, signal);
      } else throw e;
    }
    return this.parseBilling(route, path, window, answer);
  }

  private parseBilling(route: BillingRoute, path: string, window: string, answer: { json: unknown; bytes: number }): BillingPage {
    const what = `GET ${path} ${window}`;
    const parsed = billingResponseSchema(route).safeParse(answer.json);
    if (!parsed.success) throw new ApiResponseError(`${what}: ${describeIssue(parsed.error)}`);
    const body = parsed.data as {
      records: Record<string, unknown>[];
      metadata: { query: { startTime: string; endTime: string; bucketSize: BucketSize }; recordCount: number; totals: Record<string, number> };
    };
    const fields = BILLING_AMOUNT_FIELDS[route];
    const idField = BILLING_ID_FIELD[route];
    const sums: Record<string, bigint> = Object.fromEntries(fields.map((f) => [f, 0n]));
    const qs = new Date(body.metadata.query.startTime);
    const qe = new Date(body.metadata.query.endTime);
    const records: BillingRecord[] = new Array(body.records.length);
    for (let i = 0; i < body.records.length; i++) {
      const r = body.records[i]!;
      const amounts: Record<string, bigint> = {};
      for (const f of fields) {
        const micros = numberToMicros(r[f] as number);
        amounts[f] = micros;
        sums[f]! += micros;
      }
      const startTime = new Date(r.startTime as string);
      const endTime = new Date(r.endTime as string);
      if (startTime < qs || endTime > qe) {
        throw new ApiResponseError(`${what}: records[${i}] [${r.startTime}, ${r.endTime}) lies outside the answered window [${body.metadata.query.startTime}, ${body.metadata.query.endTime})`);
      }
      records[i] = { startTime, endTime, id: idField ? (r[idField] as string) : null, amounts };
    }
    if (body.metadata.recordCount !== records.length) {
      throw new ApiResponseError(`${what}: metadata.recordCount is ${body.metadata.recordCount} but ${records.length} records arrived`);
    }
    const totals: Record<string, bigint> = {};
    for (const f of fields) {
      totals[f] = numberToMicros(body.metadata.totals[f]!);
      if (totals[f] !== sums[f]) {
        throw new ApiResponseError(`${what}: metadata.totals.${f} is ${body.metadata.totals[f]} but the records add up to ${Number(sums[f]) / 1e6}`);
      }
    }
    return {
      route,
      path,
      query: { startTime: qs, endTime: qe, bucketSize: body.metadata.query.bucketSize },
      records,
      totals,
      recordCount: records.length,
      bytes: answer.bytes,
    };
  }

  async inventory(kind: InventoryKind, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const route = INVENTORY_ROUTES[kind];
    const what = `GET ${route.path}`;
    const { json } = await this.request(what, 'GET', route.path, route.query, undefined, signal);
    const parsed = (inventoryResponseSchema(kind) as z.ZodType).safeParse(json);
    if (!parsed.success) throw new ApiResponseError(`${what}: ${describeIssue(parsed.error)}`);
    return (parsed.data as Record<string, Record<string, unknown>[]>)[route.key]!;
  }

  async graphqlEndpoints(signal?: AbortSignal): Promise<{ endpoints: Record<string, unknown>[]; serverlessDiscount: Record<string, unknown> | null }> {
    const what = 'POST /graphql (myself.endpoints)';
    const { json } = await this.request(what, 'POST', '/graphql', undefined, JSON.stringify({ query: GRAPHQL_QUERY }), signal);
    const parsed = graphqlResponseSchema.safeParse(json);
    if (!parsed.success) throw new ApiGraphqlError(`${what}: ${describeIssue(parsed.error)}`);
    if (parsed.data.errors?.length) throw new ApiGraphqlError(`${what}: ${parsed.data.errors.map((e) => e.message).join('; ')}`);
    if (!parsed.data.data) throw new ApiGraphqlError(`${what}: no data in the answer`);
    const myself = parsed.data.data.myself as { endpoints: Record<string, unknown>[]; serverlessDiscount: Record<string, unknown> | null };
    return { endpoints: myself.endpoints, serverlessDiscount: myself.serverlessDiscount };
  }

  /** A raw GET, validated only as JSON (tests, diagnostics). */
  async getJson(path: string, query?: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    return (await this.request(`GET ${path}`, 'GET', path, query, undefined, signal)).json;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private backoffMs(attempt: number): number {
    // full jitter: anywhere between 0 and the exponential step, so many clients never retry in lockstep
    return Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  }

  private async request(
    what: string,
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string> | undefined,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ json: unknown; bytes: number }> {
    const fullPath = this.prefix + path + (query ? `?${new URLSearchParams(query).toString()}` : '');
    let failures = 0;
    let limited = 0;
    let lastCause = '';
    for (;;) {
      await this.governor.acquire();
      this.stats.requests++;
      let status: number;
      let text: string;
      let headers: Record<string, string | string[] | undefined>;
      try {
        const res = await this.pool.request({
          method,
          path: fullPath,
          headers: {
            authorization: this.auth,
            'user-agent': `gpuledger/${VERSION}`,
            accept: 'application/json',
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body,
          signal,
        });
        status = res.statusCode;
        headers = res.headers;
        text = await res.body.text();
        const length = header(headers, 'content-length');
        if (length !== undefined && Number(length) !== Buffer.byteLength(text)) throw new Retryable(`truncated body (${Buffer.byteLength(text)} of ${length} bytes)`);
      } catch (e) {
        if (signal?.aborted) throw e;
        lastCause = e instanceof Retryable ? e.message : `${(e as { code?: string }).code ?? 'network error'}: ${errorMessage(e)}`;
        failures++;
        if (failures > this.maxRetries) throw new ApiUnavailableError(what, failures + limited, redact(lastCause));
        this.stats.retries++;
        this.log.debug(`${what}: ${lastCause}; retry ${failures}/${this.maxRetries}`);
        await this.clock.sleep(this.backoffMs(failures));
        continue;
      }
      this.stats.bytes += Buffer.byteLength(text);
      this.governor.observe(header(headers, 'ratelimit'), header(headers, 'ratelimit-policy'));
      const date = header(headers, 'date');
      if (date) {
        const d = new Date(date);
        if (!Number.isNaN(d.getTime())) this.lastServerDate = d;
      }
      if (status >= 200 && status < 300) {
        try {
          return { json: JSON.parse(text), bytes: Buffer.byteLength(text) };
        } catch {
          lastCause = 'a body that is not complete JSON';
          failures++;
          if (failures > this.maxRetries) throw new ApiUnavailableError(what, failures + limited, lastCause);
          this.stats.retries++;
          await this.clock.sleep(this.backoffMs(failures));
          continue;
        }
      }
      const problem = this.problem(text);
      if (status === 429) {
        this.stats.rateLimited++;
        limited++;
        const retryAfter = Number(header(headers, 'retry-after'));
        const wait = this.governor.refused(Number.isFinite(retryAfter) ? retryAfter : undefined);
        lastCause = `429 ${problem?.detail ?? 'rate limited'}`;
        if (limited > MAX_RATE_LIMITED) throw new ApiUnavailableError(what, failures + limited, lastCause);
        this.log.debug(`${what}: ${lastCause}; waiting ${Math.round(wait)} ms`);
        continue;
      }
      if (status >= 500) {
        lastCause = `${status} ${problem?.detail ?? ''}`.trim();
        failures++;
        if (failures > this.maxRetries) throw new ApiUnavailableError(what, failures + limited, lastCause);
        this.stats.retries++;
        this.log.debug(`${what}: ${lastCause}; retry ${failures}/${this.maxRetries}`);
        await this.clock.sleep(this.backoffMs(failures));
        continue;
      }
      if (status === 401) throw new ApiAuthError(this.options.apiKeyEnv, problem);
      if (status === 403) throw new ApiForbiddenError(this.options.apiKeyEnv, path, problem);
      throw new ApiRequestError(what, path, status, problem);
    }
  }

  private problem(text: string): Problem | undefined {
    try {
      const parsed = problemSchema.safeParse(JSON.parse(text));
      return parsed.success ? (parsed.data as Problem) : undefined;
    } catch {
      return undefined;
    }
  }
}
