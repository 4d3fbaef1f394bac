// The six billing sources as the contract lists them (billing-api-v2.md §2): route, id field, filter parameter,
// amount fields in the order the API writes them, and the metadata count. Every other part of the simulator
// reads these definitions, so adding a source is one entry here plus a meter.

export const FAMILY_SOURCES = ['pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'] as const;
export type FamilySource = (typeof FAMILY_SOURCES)[number];
export type BillingSource = 'aggregate' | FamilySource;
export const BILLING_SOURCES: readonly BillingSource[] = ['aggregate', ...FAMILY_SOURCES];

/** Amount fields of each route in API order (billing-api-v2.md §2); totalAmount first. */
export const SOURCE_FIELDS = {
  aggregate: [
    'totalAmount',
    'podGpuAmount', 'podCpuAmount', 'podDiskAmount',
    'serverlessGpuAmount', 'serverlessCpuAmount', 'serverlessDiskAmount', 'serverlessFeeAmount',
    'storageStandardAmount', 'storageHighPerformanceAmount',
    'endpointAmount',
    'clusterGpuAmount', 'clusterDiskAmount', 'clusterNetworkingAmount',
  ],
  pods: ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount'],
  serverless: ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount', 'feeAmount'],
  'network-volumes': ['totalAmount', 'standardAmount', 'highPerformanceAmount'],
  endpoints: ['totalAmount'],
  clusters: ['totalAmount', 'gpuAmount', 'diskAmount', 'networkingAmount'],
} as const satisfies Record<BillingSource, readonly string[]>;

export type AmountField<S extends BillingSource = BillingSource> = (typeof SOURCE_FIELDS)[S][number];

export interface SourceDef {
  source: BillingSource;
  route: string;
  /** Field naming the resource on each record; null for id-less series (aggregate, public endpoints). */
  idField: string | null;
  filterParam: string | null;
  uniqueCountKey: string | null;
  /** Amount fields in API order. The first is `totalAmount`; when there are more, it is the sum of the rest. */
  fields: readonly string[];
  /** Metered components: the fields after totalAmount, or totalAmount itself when it is the only field. */
  components: readonly string[];
}

const def = (source: BillingSource, route: string, idField: string | null, uniqueCountKey: string | null): SourceDef => {
  const fields: readonly string[] = SOURCE_FIELDS[source];
  return { source, route, idField, filterParam: idField, uniqueCountKey, fields, components: fields.length === 1 ? fields : fields.slice(1) };
};

export const SOURCES: Record<BillingSource, SourceDef> = {
  aggregate: def('aggregate', '/v2/billing', null, null),
  pods: def('pods', '/v2/billing/pods', 'podId', 'uniquePodCount'),
  serverless: def('serverless', '/v2/billing/serverless', 'serverlessId', 'uniqueServerlessCount'),
  'network-volumes': def('network-volumes', '/v2/billing/network-volumes', 'networkVolumeId', 'uniqueNetworkVolumeCount'),
  endpoints: def('endpoints', '/v2/billing/endpoints', null, null),
  clusters: def('clusters', '/v2/billing/clusters', 'clusterId', 'uniqueClusterCount'),
};

/** Where each family's components sit among the aggregate's components (same order as the family's). */
export const AGGREGATE_OFFSET: Record<FamilySource, number> = {
  pods: 0,
  serverless: 3,
  'network-volumes': 7,
  endpoints: 9,
  clusters: 10,
};

export function isBillingSource(s: string): s is BillingSource {
  return (BILLING_SOURCES as readonly string[]).includes(s);
}
