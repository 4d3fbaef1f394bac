// The network half of the queue sampling, run by each sync (fetch-account.ts) while the database is untouched:
// GET /v2/{endpoint_id}/health for every QUEUE endpoint of the account (balance-and-queue.md §3). A failing sample
// is a warning, never a failed sync: the samples only refine estimated job counts. load-queue-health.ts stores them.
// So each endpoint gets one try with a short deadline (no retry, no wait for a 429), and a queue host that lets
// several in a row run out of time is skipped for the rest of the sync (issue 18 §5: a slow queue API added about
// three minutes per endpoint). The endpoints not sampled are named in one warning line.
import { z } from 'zod';
import { ApiAuthError, ApiRequester, HostBreakers, QUEUE_API_URL_SOURCE, QUEUE_HEALTH_TIMEOUTS, type ApiClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { Source } from '../config/sync.ts';
import type { ResolvedAccount } from '../config/accounts.ts';
import { errorMessage } from '../util/errors.ts';
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
}

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
  });
  const skipped: string[] = [];
  let firstReason: string | undefined;
  let endpoints: EndpointRef[] = [];
  // after a refused key every endpoint would be refused the same way: the rest are skipped without asking
  let refused: string | undefined;
  try {
    endpoints = await endpointsOf(options, harvest.inventory?.read.docs);
    for (const e of endpoints) {
      const path = `/v2/${encodeURIComponent(e.id)}/health`;
      const skip = (reason: string) => {
        skipped.push(e.name ?? e.id);
        firstReason ??= reason;
      };
      if (options.signal?.aborted || refused !== undefined) {
        skip(refused ?? 'the sync was stopped');
        continue;
      }
      try {
        const { json } = await requester.request({ what: `GET ${path}`, method: 'GET', path, signal: options.signal });
        const parsed = healthSchema.safeParse(json);
        if (!parsed.success) {
          skip(`GET ${path} answered an unexpected shape (${parsed.error.issues[0]?.message ?? 'invalid'})`);
          continue;
        }
        result.samples.push({
          endpointId: e.id,
          endpointName: e.name,
          // the queue API's clock, like the billing planner's: samples and billing share one timeline
          sampledAt: requester.serverTime() ?? new Date(),
          jobs: parsed.data.jobs,
          workers: parsed.data.workers ?? null,
        });
      } catch (err) {
        // a request abandoned because the sync was stopped says so, not "This operation was aborted"
        skip(options.signal?.aborted ? 'the sync was stopped' : errorMessage(err));
        if (err instanceof ApiAuthError) refused = errorMessage(err);
      }
    }
  } catch (err) {
    harvest.warnings.push(`${account.name}: queue health not sampled: ${errorMessage(err)}`);
    log.warn(harvest.warnings.at(-1)!);
  } finally {
    await requester.close();
  }
  if (skipped.length > 0) {
    const names = skipped.length > MAX_NAMED ? `${skipped.slice(0, MAX_NAMED).join(', ')} and ${skipped.length - MAX_NAMED} more` : skipped.join(', ');
    const line = `${account.name}: queue health not sampled for ${skipped.length} of ${endpoints.length} endpoint(s) (${names}): ${firstReason}`;
    harvest.warnings.push(line);
    log.warn(line);
  }
  log.debug(`${account.name}: ${result.samples.length} queue health sample(s) from ${url}`);
  return result;
}
