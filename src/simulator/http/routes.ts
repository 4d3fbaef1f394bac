// The v2 route table: six billing routes (plus the pre-August-2026 spelling `networkvolumes`) and six inventory
// routes, all GET (billing-api-v2.md §2–3). Billing routes need the billing scope; inventory routes do not.
import type { SyntheticAccount } from '../account/types.ts';
import { TooManyRecordsError, type LedgerInternal } from '../ledger/types.ts';
import { SOURCES, type BillingSource } from '../ledger/sources.ts';
import { writeBillingBody, type DriftChoice } from './billing-body.ts';
import { parseBillingQuery } from './billing-query.ts';
import { listClusters, listEndpoints, listGpus, listNetworkVolumes, listPods, listTemplates } from './inventory.ts';
import { JSON_TYPE, jsonReply, problemReply, type Reply } from './reply.ts';

export interface RouteContext {
  account: SyntheticAccount;
  ledger: LedgerInternal;
  now: number;
  params: URLSearchParams;
  sparse: boolean;
  drift: DriftChoice | null;
}

export interface Route {
  methods: readonly string[];
  /** The billing source of a billing route (needs the billing scope), else null. */
  billing: BillingSource | null;
  handle(ctx: RouteContext): Reply;
}

/** Largest answer the simulator builds (≈ 300 MB of JSON); beyond it the window must shrink. */
export const MAX_RECORDS = 2_000_000;

function billingRoute(source: BillingSource): Route {
  return {
    methods: ['GET'],
    billing: source,
    handle({ ledger, now, params, sparse, drift }) {
      const parsed = parseBillingQuery(source, params, now);
      if (!parsed.ok) return problemReply(parsed.status, parsed.detail, { errors: parsed.errors });
      const q = parsed.query;
      try {
        const table = ledger.table({ ...q, sparse, maxRecords: MAX_RECORDS });
        return { status: 200, headers: { 'Content-Type': JSON_TYPE }, body: writeBillingBody(table, q, drift) };
      } catch (e) {
        if (e instanceof TooManyRecordsError) return problemReply(400, e.message, { errors: [e.message] });
        throw e;
      }
    },
  };
}

function inventoryRoute(list: (ctx: RouteContext) => unknown): Route {
  return { methods: ['GET'], billing: null, handle: (ctx) => jsonReply(200, list(ctx)) };
}

export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ...Object.values(SOURCES).map((d) => [d.route, billingRoute(d.source)] as const),
  // the spelling until August 2026; still served (§2)
  ['/v2/billing/networkvolumes', billingRoute('network-volumes')],
  ['/v2/pods', inventoryRoute((c) => listPods(c.account, c.now, c.params.get('includeClusterPods') === 'true'))],
  ['/v2/serverless', inventoryRoute((c) => listEndpoints(c.account, c.now))],
  ['/v2/templates', inventoryRoute((c) => listTemplates(c.account))],
  ['/v2/network-volumes', inventoryRoute((c) => listNetworkVolumes(c.account, c.now))],
  ['/v2/catalog/gpus', inventoryRoute((c) => listGpus(c.account))],
  ['/v2/clusters', inventoryRoute((c) => listClusters(c.account, c.now))],
]);
