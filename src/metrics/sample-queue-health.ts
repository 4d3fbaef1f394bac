// The network half of the queue sampling, run by each sync (fetch-account.ts) while the database is untouched:
// GET /v2/{endpoint_id}/health for every QUEUE endpoint of the account (balance-and-queue.md §3). A failing sample
// is a warning, never a failed sync: the samples only refine estimated job counts. load-queue-health.ts stores them.
// So each endpoint gets one try with a short deadline (no retry, no wait for a 429), a queue host that lets several
// in a row run out of time is skipped for the rest of the sync (issue 18 §5: a slow queue API added about three
// minutes per endpoint), the endpoints are asked side by side (QUEUE_HEALTH_CONCURRENCY) and all of them within one
// overall deadline (QUEUE_HEALTH_DEADLINE_MS; issue 26 §7: one after another, a slow host still cost a request
// deadline per endpoint). The endpoints not sampled are named in one warning line.
import { z } from 'zod';
import { ApiAuthError, ApiRequester, HostBreakers, QUEUE_API_URL_SOURCE, QUEUE_HEALTH_TIMEOUTS, type ApiClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { Source } from '../config/sync.ts';
import type { ResolvedAccount } from '../config/accounts.ts';
import { errorMessage } from '../util/errors.ts';
import { forEachConcurrently } from '../util/pool.ts';
import type { Logger } from '../util/log.ts';
import { queueApiUrlFor } from './queue-url.ts';

const count = z.number().int().nonnegative().nullish();
// `workers` varies between sources (idle, initializing, ready, running, throttled, unhealthy…): an open map
const healthSchema = z.object({
  jobs: z.object({ completed: count, failed: count, inProgress: count, inQueue: count, retried: count }).loose(),
  workers: z.record(z.string(), z.number().int()).optional(),
});

export interface QueueHealthSample {
  endpointId: string;
  endpointName: string | null;
  sampledAt: Date;
  jobs: z.infer<typeof healthSchema>['jobs'];
  workers: Record<string, number> | null;
}

export interface QueueHealthHarvest {
  url: string;
  samples: QueueHealthSample[];
}

export interface SampleOptions {
  client: ApiClient;
  account: ResolvedAccount;
  config: Config;
  sources: readonly Source[];
  log: Logger;
  signal?: AbortSignal;
  /** The run's breakers for queue hosts (shared by every account of a sync). */
  queueBreakers?: HostBreakers;
  /** The most all of an account's samples may take (default QUEUE_HEALTH_DEADLINE_MS; tests shorten it). */
  deadlineMs?: number;
}

/** Requests in flight at once per account: a queue host that answers slowly costs the slowest few, not the sum. */
export const QUEUE_HEALTH_CONCURRENCY = 8;

/**
 * The most all of an account's samples may take, however many endpoints it has: three request deadlines
 * (QUEUE_HEALTH_TIMEOUTS). Side by side, a healthy queue API answers a hundred endpoints well within it; a slow one
 * costs this much once, not a request deadline per endpoint (issue 26 §7).
 */
export const QUEUE_HEALTH_DEADLINE_MS = 15_000;

/** Endpoints named in the warning line; a long list ends in "and N more". */
const MAX_NAMED = 10;

type EndpointRef = { id: string; name: string | null; type?: unknown };

async function endpointsOf(options: SampleOptions, inventory: ReadonlyArray<{ kind: string; id: string; doc: unknown }> | undefined): Promise<EndpointRef[]> {
  const docs = inventory
    ? inventory.filter((d) => d.kind === 'endpoint').map((d) => d.doc as Record<string, unknown>)
    : await options.client.inventory('serverless', options.signal);
  return docs
    .map((d) => ({ id: String(d.id), name: typeof d.name === 'string' ? d.name : null, type: d.type }))
    .filter((e) => e.type !== 'LOAD_BALANCER'); // a load-balancing endpoint has no queue
}

export async function sampleQueueHealth(
  options: SampleOptions,
  harvest: { inventory?: { read: { docs: ReadonlyArray<{ kind: string; id: string; doc: unknown }> } }; warnings: string[] },
): Promise<QueueHealthHarvest | undefined> {
  if (!options.sources.includes('health')) return undefined;
  const { account, log } = options;
  const url = queueApiUrlFor(options.config.queueApiUrl, account.apiUrl);
  const result: QueueHealthHarvest = { url, samples: [] };
  const requester = new ApiRequester({
    baseUrl: url,
    apiKey: account.apiKey,
    apiKeyEnv: account.apiKeyEnv,
    log: log.child(`${account.name} queue`),
    maxRetries: 0,
    maxRateLimited: 0,
    timeouts: QUEUE_HEALTH_TIMEOUTS,
    breakers: options.queueBreakers ?? new HostBreakers(),
    source: QUEUE_API_URL_SOURCE,
    // side by side: one connection per request in flight, and a first pace that lets them start together (the queue
    // API documents no rate limit, balance-and-queue.md §3; RateLimit headers, if it sends any, still govern)
    connections: QUEUE_HEALTH_CONCURRENCY,
    initialRatePerSecond: QUEUE_HEALTH_CONCURRENCY,
  });
  let endpoints: EndpointRef[] = [];
  // per endpoint, in the inventory's order however the requests interleaved: a sample, or why there is none
  let outcomes: Array<QueueHealthSample | { skipped: string }> = [];
  const deadlineMs = options.deadlineMs ?? QUEUE_HEALTH_DEADLINE_MS;
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  // why a request was not made or not answered, in the words of what ended it
  const ended = (): string | undefined =>
    options.signal?.aborted
      ? 'the sync was stopped'
      : deadline.aborted
        ? `the queue API did not answer every endpoint within the ${deadlineMs / 1000} s all samples of an account may take`
        : undefined;
  // after a refused key every endpoint would be refused the same way: the rest are skipped without asking
  let refused: string | undefined;
  try {
    endpoints = await endpointsOf(options, harvest.inventory?.read.docs);
    outcomes = await forEachConcurrently(endpoints, QUEUE_HEALTH_CONCURRENCY, async (e) => {
      const path = `/v2/${encodeURIComponent(e.id)}/health`;
      const before = refused ?? ended();
      if (before !== undefined) return { skipped: before };
      try {
        const { json } = await requester.request({ what: `GET ${path}`, method: 'GET', path, signal });
        const parsed = healthSchema.safeParse(json);
        if (!parsed.success) return { skipped: `GET ${path} answered an unexpected shape (${parsed.error.issues[0]?.message ?? 'invalid'})` };
        return {
          endpointId: e.id,
          endpointName: e.name,
          // the queue API's clock, like the billing planner's: samples and billing share one timeline
          sampledAt: requester.serverTime() ?? new Date(),
          jobs: parsed.data.jobs,
          workers: parsed.data.workers ?? null,
        };
      } catch (err) {
        if (err instanceof ApiAuthError) refused = errorMessage(err);
        // a request abandoned by the stop or the deadline says so, not "This operation was aborted"
        return { skipped: ended() ?? errorMessage(err) };
      }
    });
  } catch (err) {
    harvest.warnings.push(`${account.name}: queue health not sampled: ${errorMessage(err)}`);
    log.warn(harvest.warnings.at(-1)!);
  } finally {
    await requester.close();
  }
  const skipped: string[] = [];
  let firstReason: string | undefined;
  outcomes.forEach((o, i) => {
    if ('skipped' in o) {
      skipped.push(endpoints[i]!.name ?? endpoints[i]!.id);
      firstReason ??= o.skipped;
    } else {
      result.samples.push(o);
    }
  });
  if (skipped.length > 0) {
    const names = skipped.length > MAX_NAMED ? `${skipped.slice(0, MAX_NAMED).join(', ')} and ${skipped.length - MAX_NAMED} more` : skipped.join(', ');
    const line = `${account.name}: queue health not sampled for ${skipped.length} of ${endpoints.length} endpoint(s) (${names}): ${firstReason}`;
    harvest.warnings.push(line);
    log.warn(line);
  }
  log.debug(`${account.name}: ${result.samples.length} queue health sample(s) from ${url}`);
  return result;
}
