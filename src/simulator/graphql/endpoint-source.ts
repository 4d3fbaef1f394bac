// An endpoint as GraphQL's Endpoint type answers it (billing-api-v2.md §4), for the listing and saveEndpoint.
import type { SimEndpoint } from '../account/types.ts';

type Source = Record<string, unknown>;

export function endpointSource(e: SimEndpoint): Source {
  // current workers: the warm ones plus about as many as the endpoint is busy at its peak
  const workers = e.workersMin + Math.round(e.traffic.peakWorkers);
  return {
    id: e.id,
    name: e.name,
    gpuIds: e.pools ? e.pools.join(',') : '',
    gpuCount: e.gpuCount,
    idleTimeout: e.idleTimeout,
    locations: e.locations,
    networkVolumeId: e.networkVolumeIds[0] ?? null,
    scalerType: e.scaling.type,
    scalerValue: e.scaling.type === 'QUEUE_DELAY' ? e.scaling.queueDelay : e.scaling.requestCount,
    templateId: e.templateId,
    type: e.type === 'QUEUE' ? 'QB' : 'LB',
    flashBootType: e.flashboot,
    workersMax: e.workersMax,
    workersMin: e.workersMin,
    pods: Array.from({ length: workers }, (_, i) => ({ id: `${e.id}-w${i}`, desiredStatus: 'RUNNING' })),
  };
}
