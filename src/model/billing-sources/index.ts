// The billing sources gpuledger extracts, one declaration each (a file per source beside this one). Adding a source
// is a new file here, its raw table in a migration and its billing_* view; the test of these declarations names
// whatever disagrees.
import { aggregate } from './aggregate.ts';
import { clusters } from './clusters.ts';
import type { BillingSourceDef } from './define.ts';
import { endpoints } from './endpoints.ts';
import { networkVolumes } from './network-volumes.ts';
import { pods } from './pods.ts';
import { serverless } from './serverless.ts';

const DEFS = [aggregate, pods, serverless, networkVolumes, endpoints, clusters] as const;

export type BillingSource = (typeof DEFS)[number]['source'];

/** The billing sources in extraction order (the aggregate first: it reconciles the others). */
export const BILLING_SOURCES = DEFS.map((d) => d.source) as unknown as readonly [BillingSource, ...BillingSource[]];

export const BILLING_SOURCE_DEFS: Readonly<Record<BillingSource, BillingSourceDef<BillingSource>>> = Object.fromEntries(
  DEFS.map((d) => [d.source, d]),
) as Record<BillingSource, BillingSourceDef<BillingSource>>;

export function isBillingSource(s: string): s is BillingSource {
  return Object.hasOwn(BILLING_SOURCE_DEFS, s);
}

export { defineBillingSource, snakeCase, type AmountDef, type AmountTarget, type BillingSourceDef } from './define.ts';

/** The sources that bill one family each (every source but the aggregate route), in extraction order. */
export const FAMILY_SOURCE_DEFS = DEFS.filter((d) => d.family !== null);
