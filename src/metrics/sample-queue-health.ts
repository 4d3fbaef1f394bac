// The network half of the queue sampling, run by each sync (fetch-account.ts) while the database is untouched:
// GET /v2/{endpoint_id}/health for every QUEUE endpoint of the account (balance-and-queue.md §3). A failing sample
// is a warning, never a failed sync: the samples only refine estimated job counts. load-queue-health.ts stores them.
import { z } from 'zod';
import { ApiAuthError, ApiRequester, type ApiClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { Source } from '../config/sync.ts';
import type { ResolvedAccount } from '../extract/accounts.ts';
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
}

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
  const requester = new ApiRequester({ baseUrl: url, apiKey: account.apiKey, apiKeyEnv: account.apiKeyEnv, log: log.child(`${account.name} queue`), maxRetries: 2 });
  try {
    const endpoints = await endpointsOf(options, harvest.inventory?.read.docs);
    for (const e of endpoints) {
      if (options.signal?.aborted) break;
      const path = `/v2/${encodeURIComponent(e.id)}/health`;
      try {
        const { json } = await requester.request({ what: `GET ${path}`, method: 'GET', path, signal: options.signal });
        const parsed = healthSchema.safeParse(json);
        if (!parsed.success) {
          harvest.warnings.push(`${account.name}: GET ${path} answered an unexpected shape (${parsed.error.issues[0]?.message ?? 'invalid'}); sample skipped`);
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
        harvest.warnings.push(`${account.name}: queue health of ${e.name ?? e.id} not sampled: ${errorMessage(err)}`);
        if (err instanceof ApiAuthError) break; // the key is refused by the queue API: every endpoint would be
      }
    }
  } catch (err) {
    harvest.warnings.push(`${account.name}: queue health not sampled: ${errorMessage(err)}`);
  } finally {
    await requester.close();
  }
  log.debug(`${account.name}: ${result.samples.length} queue health sample(s) from ${url}`);
  return result;
}
