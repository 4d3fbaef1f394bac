// Builds the whole synthetic account from (seed, scale, counts, initial now): the same inputs always give the same
// account. History starts `days` before the initial now's UTC day; resources and events are generated until the
// initial now + 90 days, so advancing the clock reveals more hours without reshaping the past.
import { UsageError } from '../../util/errors.ts';
import { formatRfc3339 } from '../../util/buckets.ts';
import { hashUnit, saltFor } from '../prng.ts';
import { DAY } from '../time.ts';
import { GPU_CATALOG } from './catalog.ts';
import { createGenContext } from './context.ts';
import { createRandomEndpoint } from './endpoints.ts';
import { PLANTED_MINIMUM, createPlanted } from './planted.ts';
import { createRandomPod } from './pods.ts';
import { createTemplates } from './templates.ts';
import type { Scale, SyntheticAccount } from './types.ts';
import { createAttachedVolumes } from './volumes.ts';

export interface AccountCounts {
  pods: number;
  endpoints: number;
  volumes: number;
  days: number;
}

export const SCALES: Record<Scale, AccountCounts> = {
  small: { pods: 12, endpoints: 5, volumes: 6, days: 120 },
  medium: { pods: 150, endpoints: 25, volumes: 40, days: 200 },
  large: { pods: 1000, endpoints: 100, volumes: 200, days: 400 },
};

/** Share of resources whose recent closed hours are restated (preliminary first, final an hour later). */
const RESTATED_SHARE = 0.25;

export interface AccountOptions {
  seed: number;
  scale: Scale;
  counts?: Partial<AccountCounts>;
  initialNow: Date;
}

export function resolveCounts(scale: Scale, counts: Partial<AccountCounts> = {}): AccountCounts {
  const resolved = { ...SCALES[scale], ...counts };
  for (const key of ['pods', 'endpoints', 'volumes', 'days'] as const) {
    const value = resolved[key];
    if (!Number.isInteger(value) || value < PLANTED_MINIMUM[key]) {
      throw new UsageError(`counts.${key} must be an integer ≥ ${PLANTED_MINIMUM[key]} (the planted facts need them), got ${value}`);
    }
  }
  return resolved;
}

export function createSyntheticAccount(options: AccountOptions): SyntheticAccount {
  const counts = resolveCounts(options.scale, options.counts);
  const ctx = createGenContext(options.seed, options.initialNow.getTime(), counts.days);
  const templates = createTemplates(ctx.rng, ctx.newId, Math.floor(counts.pods / 40));
  const planted = createPlanted(ctx, templates);

  const ordinaryPods = Array.from({ length: counts.pods - planted.pods.length }, (_, i) => createRandomPod(ctx, i, templates));
  const ordinaryEndpoints = Array.from({ length: counts.endpoints - planted.endpoints.length }, (_, i) =>
    createRandomEndpoint(ctx, i, templates),
  );
  // the planted pods keep their own mounts (the EXITED pod's volume is the point of fact (c))
  const volumes = [
    planted.volume,
    ...createAttachedVolumes(ctx, counts.volumes - 1, ordinaryPods, [...planted.endpoints, ...ordinaryEndpoints]),
  ];
  const pods = [...planted.pods, ...ordinaryPods, ...planted.clusterPods];
  const endpoints = [...planted.endpoints, ...ordinaryEndpoints];

  const restatedSalt = saltFor(options.seed, 'restated');
  const restatedIds = new Set<string>([planted.facts.restatedPod.id]);
  for (const { id } of [...pods, ...endpoints, planted.cluster]) {
    if (hashUnit(restatedSalt, saltFor(0, id)) < RESTATED_SHARE) restatedIds.add(id);
  }

  return {
    seed: options.seed,
    scale: options.scale,
    initialNow: new Date(ctx.t0),
    historyStart: new Date(ctx.historyStart),
    horizonEnd: new Date(ctx.horizonEnd),
    gpus: GPU_CATALOG,
    templates,
    pods,
    endpoints,
    volumes,
    clusters: [planted.cluster],
    publicEndpoints: [{ model: 'llama-3.1-70b-instruct', startedAt: new Date(Math.max(ctx.historyStart, ctx.d0 - 50 * DAY)), peakUsdPerHour: 0.8 }],
    serverlessDiscount: { discountFactor: 0.9, type: 'SERVERLESS', expirationDate: formatRfc3339(new Date(ctx.d0 + 120 * DAY)) },
    restatedIds,
    planted: planted.facts,
  };
}
