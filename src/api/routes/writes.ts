// The only writes gpuledger ever sends (DESIGN.md; platform-api-overview.md): a pod's `stop` or `start` through
// `POST /v2/pods/{id}/action`, and an endpoint's worker counts through `PATCH /v2/serverless/{id}`. There is no
// function here for terminate, delete, restart or any other field: what does not exist cannot be sent. Each is sent
// at most once (request.ts `write`); the caller verifies the outcome by reading the resource back, never from the
// answer.
import type { ApiRequester } from '../request.ts';

export type PodAction = 'stop' | 'start';
export interface WorkerCounts {
  workersMin?: number;
  workersMax?: number;
}

/** What a write sends, as the audit records it: method, path and body. */
export interface WriteRequest {
  method: 'POST' | 'PATCH';
  path: string;
  body: Record<string, unknown>;
}

export const podActionRequest = (podId: string, action: PodAction): WriteRequest => ({
  method: 'POST',
  path: `/v2/pods/${encodeURIComponent(podId)}/action`,
  body: { action },
});

export const workersRequest = (endpointId: string, counts: WorkerCounts): WriteRequest => ({
  method: 'PATCH',
  path: `/v2/serverless/${encodeURIComponent(endpointId)}`,
  body: { ...counts },
});

export async function sendWrite(requester: ApiRequester, request: WriteRequest, signal?: AbortSignal): Promise<void> {
  await requester.request({
    what: `${request.method} ${request.path}`,
    method: request.method,
    path: request.path,
    body: JSON.stringify(request.body),
    signal,
    write: true,
  });
}
