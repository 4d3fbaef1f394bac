// What guardrails act on, as the inventory routes show it now (billing-api-v2.md §3): pods with their run state and
// compute cost per hour, endpoints with their worker counts. Every outcome is verified from here, never from a
// write's answer. A state is JSON with a fixed key order, so two readings compare as text.
import type { ApiClient } from '../api/index.ts';

export type ResourceType = 'pod' | 'endpoint';

export interface Resource {
  type: ResourceType;
  id: string;
  name: string | null;
  /** JSON: {"status":"RUNNING"} for a pod, {"workersMin":1,"workersMax":3} for an endpoint. */
  state: string;
  /** A pod's compute USD per hour while running (the inventory `cost`); null for an endpoint. */
  cost: number | null;
  template: string | null;
  gpuType: string | null;
  dataCenter: string | null;
  /** Pods of an Instant Cluster are run by their cluster: never acted on one by one. */
  clusterMember: boolean;
}

export const podState = (status: string): string => JSON.stringify({ status });
export const workersState = (workersMin: number, workersMax: number): string => JSON.stringify({ workersMin, workersMax });

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number => (Number.isInteger(v) ? (v as number) : NaN);

export async function readPods(client: ApiClient, signal?: AbortSignal): Promise<Resource[]> {
  return (await client.inventory('pods', signal)).map((p) => ({
    type: 'pod',
    id: String(p.id),
    name: text(p.name),
    state: podState(String(p.status)),
    cost: typeof p.cost === 'number' ? p.cost : null,
    template: text(p.template),
    gpuType: text((p.gpu as { id?: unknown } | undefined)?.id),
    dataCenter: text(p.dataCenterId),
    clusterMember: p.cluster !== undefined && p.cluster !== null,
  }));
}

export async function readEndpoints(client: ApiClient, signal?: AbortSignal): Promise<Resource[]> {
  return (await client.inventory('serverless', signal)).map((e) => {
    const workers = (e.workers ?? {}) as { min?: unknown; max?: unknown };
    return {
      type: 'endpoint',
      id: String(e.id),
      name: text(e.name),
      state: workersState(int(workers.min), int(workers.max)),
      cost: null,
      template: null,
      gpuType: null,
      dataCenter: null,
      clusterMember: false,
    };
  });
}

export function readResources(client: ApiClient, type: ResourceType, signal?: AbortSignal): Promise<Resource[]> {
  return type === 'pod' ? readPods(client, signal) : readEndpoints(client, signal);
}

/** One resource read back now; undefined when the inventory no longer lists it. */
export async function readBack(client: ApiClient, type: ResourceType, id: string, signal?: AbortSignal): Promise<Resource | undefined> {
  return (await readResources(client, type, signal)).find((r) => r.id === id);
}
