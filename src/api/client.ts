// The platform API client: one ApiRequester (pacing, undici, retries – request.ts) per account, and the routes
// gpuledger reads (routes/). Every answer is validated against the contract before anyone sees it.
import { silentLogger, type Logger } from '../util/log.ts';
import type { BillingPage, BillingQuery } from './billing-page.ts';
import { QUICK_TIMEOUTS } from './deadlines.ts';
import { ApiNotPlatformError, ApiRequestError } from './errors.ts';
import { ApiRequester, type ApiStats, type RequesterOptions } from './request.ts';
import type { BalanceReading, BalanceSource } from './balance.ts';
import { createGraphqlBalanceSource } from './routes/balance.ts';
import { createBillingRouteState, fetchBillingPage, type BillingRouteState } from './routes/billing.ts';
import { fetchGraphqlEndpoints, type GraphqlEndpoints } from './routes/graphql.ts';
import { fetchInventory } from './routes/inventory.ts';
import { sendWrite, type WriteRequest } from './routes/writes.ts';
import { INVENTORY_ROUTES, inventoryResponseSchema, type BillingRoute, type InventoryKind } from './schemas.ts';

export type ApiClientOptions = RequesterOptions;

export interface QuotaWindow {
  name: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export class ApiClient {
  private readonly requester: ApiRequester;
  private readonly log: Logger;
  private readonly billingState: BillingRouteState = createBillingRouteState();
  /** Warnings already logged once (a derived total is said once per route, not once per chunk). */
  private readonly warned = new Set<string>();
  /** Where the balance comes from: GraphQL until a REST route replaces it (balance-and-queue.md §1). */
  private readonly balanceSource: BalanceSource;

  constructor(options: ApiClientOptions) {
    this.requester = new ApiRequester(options);
    this.log = options.log ?? silentLogger;
    this.balanceSource = createGraphqlBalanceSource(this.requester);
  }

  get stats(): ApiStats {
    return this.requester.stats;
  }

  /** The platform's clock (its last Date header): "now" for planning, never the local clock. */
  serverTime(): Date | undefined {
    return this.requester.serverTime();
  }

  quota(): { windows: QuotaWindow[] } | undefined {
    const windows = this.requester.governor.snapshot().filter((w) => w.quota !== undefined && w.windowSeconds !== undefined);
    if (windows.length === 0) return undefined;
    return {
      windows: windows.map((w) => ({ name: w.name, quota: w.quota!, windowSeconds: w.windowSeconds!, remaining: w.remaining, resetSeconds: w.resetSeconds })),
    };
  }

  /**
   * One cheap call (the GPU catalog) so that the platform's time and quota are known. Every platform deployment
   * serves it (billing-api-v2.md §3), so a 404 or an answer without a `gpus` list means the URL is not the platform.
   * A small answer, so it waits only briefly: a host that accepts and never answers is given up on within
   * BREAKER_TIMEOUTS × QUICK_TIMEOUTS.headersMs (deadlines.ts).
   */
  async probe(signal?: AbortSignal): Promise<void> {
    const { path } = INVENTORY_ROUTES.gpus;
    let json: unknown;
    try {
      ({ json } = await this.requester.request({ what: `GET ${path}`, method: 'GET', path, signal, timeouts: QUICK_TIMEOUTS }));
    } catch (e) {
      if (e instanceof ApiRequestError && e.status === 404) throw new ApiNotPlatformError(this.requester.url, `GET ${path} answered 404`, { cause: e });
      throw e;
    }
    if (!inventoryResponseSchema('gpus').safeParse(json).success) {
      throw new ApiNotPlatformError(this.requester.url, `GET ${path} answered JSON without a gpus list`);
    }
  }

  async billing(route: BillingRoute, query: BillingQuery, signal?: AbortSignal): Promise<BillingPage> {
    const page = await fetchBillingPage(this.requester, this.billingState, this.log, route, query, signal);
    for (const w of page.warnings) {
      const key = `${route} ${w.slice(w.indexOf(': metadata'))}`;
      if (this.warned.has(key)) this.log.debug(w);
      else {
        this.warned.add(key);
        this.log.warn(w);
      }
    }
    return page;
  }

  inventory(kind: InventoryKind, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    return fetchInventory(this.requester, kind, signal);
  }

  graphqlEndpoints(signal?: AbortSignal): Promise<GraphqlEndpoints> {
    return fetchGraphqlEndpoints(this.requester, signal);
  }

  balance(signal?: AbortSignal): Promise<BalanceReading> {
    return this.balanceSource.read(signal);
  }

  /** One of the writes routes/writes.ts builds, sent at most once; its answer is not read (verify by reading back). */
  write(request: WriteRequest, signal?: AbortSignal): Promise<void> {
    return sendWrite(this.requester, request, signal);
  }

  /** A raw GET, validated only as JSON (tests, diagnostics). */
  async getJson(path: string, query?: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    return (await this.requester.request({ what: `GET ${path}`, method: 'GET', path, query, signal })).json;
  }

  close(): Promise<void> {
    return this.requester.close();
  }
}
