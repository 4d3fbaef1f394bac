// GET /v2/billing[/<family>] for one window (billing-api-v2.md §2). The network-volume route was spelled
// /v2/billing/networkvolumes until August 2026: on a 404 the older spelling is tried once and remembered.
import { formatRfc3339 } from '../../util/buckets.ts';
import type { Logger } from '../../util/log.ts';
import { splitBillingBody, type SplitBody } from '../billing-body.ts';
import { parseBillingPage, type BillingPage, type BillingQuery } from '../billing-page.ts';
import { ApiRequestError } from '../errors.ts';
import type { ApiRequester } from '../request.ts';
import { BILLING_PATHS, OLD_NETWORK_VOLUMES_PATH, type BillingRoute } from '../schemas.ts';

/** Per client: which spelling of the network-volume route this deployment answers. */
export interface BillingRouteState {
  networkVolumesPath: string;
}

export function createBillingRouteState(): BillingRouteState {
  return { networkVolumesPath: BILLING_PATHS['network-volumes'] };
}

export async function fetchBillingPage(
  requester: ApiRequester,
  state: BillingRouteState,
  log: Logger,
  route: BillingRoute,
  query: BillingQuery,
  signal?: AbortSignal,
): Promise<BillingPage> {
  const params = { startTime: formatRfc3339(query.startTime), endTime: formatRfc3339(query.endTime), bucketSize: query.bucketSize };
  const window = `[${params.startTime}, ${params.endTime}) ${params.bucketSize}`;
  let path = route === 'network-volumes' ? state.networkVolumesPath : BILLING_PATHS[route];
  const get = (p: string) => requester.request({ what: `GET ${p} ${window}`, method: 'GET', path: p, query: params, signal, readBody: splitBillingBody });
  let answer;
  try {
    answer = await get(path);
  } catch (e) {
    if (route !== 'network-volumes' || path === OLD_NETWORK_VOLUMES_PATH || !(e instanceof ApiRequestError) || e.status !== 404) throw e;
    log.warn(`${path} answered 404; using the older spelling ${OLD_NETWORK_VOLUMES_PATH}`);
    state.networkVolumesPath = path = OLD_NETWORK_VOLUMES_PATH;
    answer = await get(path);
  }
  return parseBillingPage(route, path, `GET ${path} ${window}`, answer.json as SplitBody, answer.bytes);
}
