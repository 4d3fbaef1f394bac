// zod schemas of the answers gpuledger reads, written from billing-api-v2.md: required amounts are required
// finite numbers, unknown extra fields are tolerated, an unset filter may be null or absent. A violation becomes
// an ApiResponseError naming the route, the window and the field path – never a NaN or a zero.
//
// Strict on data, lenient on derivable metadata (billing-api-v2.md §2 "Response shape" and its invariants):
// - records – their times, ids and every amount field – are the data and are validated strictly; one bad record
//   fails the page, naming the field (`records[17].gpuAmount: …`);
// - metadata.query is the window the server resolved; it cannot be derived, so it is required too;
// - metadata.totals, metadata.recordCount and metadata.unique*Count are sums and counts over the records. They are
//   accepted here in any shape (absent, `{}`, missing fields); billing-page.ts checks the ones that are present
//   against the records (a disagreement means records were lost: the page fails) and derives the rest with a warning.
import { z } from 'zod';
import { BILLING_SOURCE_DEFS, INVENTORY_LISTS, type BillingSource as BillingRoute, type InventoryListName } from '../model/index.ts';
import { isRfc3339 } from '../util/dates.ts';

export type { BillingSource as BillingRoute } from '../model/index.ts';
/** A REST inventory list by name, as the inventory documents' declarations name their routes. */
export type InventoryKind = InventoryListName;

// Routes, id fields and amount fields are derived from the one declaration per billing source.
const billingSources = Object.values(BILLING_SOURCE_DEFS);

export const BILLING_PATHS = Object.fromEntries(billingSources.map((d) => [d.source, d.path])) as Record<BillingRoute, string>;

/** The spelling of the network-volume route until August 2026, tried once after a 404. */
export const OLD_NETWORK_VOLUMES_PATH = BILLING_SOURCE_DEFS['network-volumes'].oldPaths[0]!;

export const BILLING_AMOUNT_FIELDS = Object.fromEntries(billingSources.map((d) => [d.source, d.amountFields])) as Record<BillingRoute, readonly string[]>;

export const BILLING_ID_FIELD = Object.fromEntries(billingSources.map((d) => [d.source, d.idField])) as Record<BillingRoute, string | null>;

const timestamp = z.string().refine(isRfc3339, 'expected an RFC 3339 date-time');
const amount = z.number().finite();

const schemas = new Map<BillingRoute, z.ZodType>();

/** The schema of one billing route's answer. */
export function billingResponseSchema(route: BillingRoute): z.ZodType {
  let schema = schemas.get(route);
  if (schema) return schema;
  const idField = BILLING_ID_FIELD[route];
  const amounts = Object.fromEntries(BILLING_AMOUNT_FIELDS[route].map((f) => [f, amount]));
  const record = z.looseObject({
    startTime: timestamp,
    endTime: timestamp,
    ...(idField ? { [idField]: z.string().min(1) } : {}),
    ...amounts,
  });
  schema = z.looseObject({
    records: z.array(record),
    metadata: z.looseObject({
      query: z.looseObject({
        startTime: timestamp,
        endTime: timestamp,
        bucketSize: z.enum(['hour', 'day', 'week', 'month', 'year']),
      }),
      // derivable from the records (see the header): checked or derived in billing-page.ts
      recordCount: z.unknown().optional(),
      totals: z.unknown().optional(),
    }),
  });
  schemas.set(route, schema);
  return schema;
}

const withId = z.looseObject({ id: z.union([z.string().min(1), z.number()]) });

// derived from the inventory documents' declarations (src/model/inventory-documents/), as BILLING_PATHS is from the billing sources'
export const INVENTORY_ROUTES = Object.fromEntries(
  INVENTORY_LISTS.map(({ name, path, key, query }) => [name, { path, key, ...(query ? { query } : {}) }]),
) as Record<InventoryKind, { path: string; key: string; query?: Readonly<Record<string, string>> }>;

export function inventoryResponseSchema(kind: InventoryKind): z.ZodType {
  return z.looseObject({ [INVENTORY_ROUTES[kind].key]: z.array(withId) });
}

export const GRAPHQL_QUERY = `query { myself {
  endpoints { id name gpuIds idleTimeout locations networkVolumeId scalerType scalerValue templateId workersMax workersMin pods { desiredStatus } }
  serverlessDiscount { discountFactor type expirationDate } } }`;

export const graphqlResponseSchema = z.looseObject({
  data: z
    .looseObject({
      myself: z.looseObject({
        endpoints: z.array(withId),
        serverlessDiscount: z.looseObject({}).nullable(),
      }),
    })
    .nullable()
    .optional(),
  errors: z.array(z.looseObject({ message: z.string() })).optional(),
});

export const problemSchema = z.looseObject({
  title: z.string().optional(),
  status: z.number().optional(),
  detail: z.string().optional(),
  // problem+json lists strings; a GraphQL server answering 400 lists {message} objects: both read as text
  errors: z.array(z.union([z.string(), z.looseObject({ message: z.string() }).transform((e) => e.message)])).optional(),
});

/** The first issue of a failed parse as `path: message`, e.g. `records[17].gpuAmount: expected number, received undefined`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid answer';
  let path = '';
  for (const p of issue.path) path += typeof p === 'number' ? `[${p}]` : path ? `.${String(p)}` : String(p);
  return `${path || '(body)'}: ${issue.message}`;
}
