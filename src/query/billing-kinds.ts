// The platform CLI's billing views (billing-api-v2.md §7) and how each maps onto gpuledger's `cost` facts: which
// family, which sync source fetches it, the groupings it accepts and the column each grouping reads.
export const BILLING_KINDS = ['pods', 'serverless', 'network-volume'] as const;
export type BillingKind = (typeof BILLING_KINDS)[number];

/** -o/--output of `gpuledger billing`; here (not in billing-output.ts) so the CLI lists them without loading yaml. */
export const BILLING_OUTPUTS = ['json', 'yaml', 'table', 'csv'] as const;
export type BillingOutput = (typeof BILLING_OUTPUTS)[number];

export type Grouping = 'podId' | 'gpuId' | 'endpointId';
export type BillingFilter = 'podId' | 'endpointId' | 'gpuId';

export interface BillingKindSpec {
  family: 'pod' | 'serverless' | 'storage';
  /** The `gpuledger sync --source` name that fetches this history. */
  source: 'pods' | 'serverless' | 'network-volumes';
  groupings: readonly Grouping[];
  defaultGrouping: Grouping | null;
  /** Groupings the platform CLI offers that v2 data cannot answer, with the reason. */
  unsupported: Partial<Record<Grouping, string>>;
  filters: readonly BillingFilter[];
}

export const BILLING_SPECS: Record<BillingKind, BillingKindSpec> = {
  pods: {
    family: 'pod',
    source: 'pods',
    groupings: ['podId', 'gpuId'],
    defaultGrouping: 'gpuId',
    unsupported: {},
    filters: ['podId', 'gpuId'],
  },
  serverless: {
    family: 'serverless',
    source: 'serverless',
    groupings: ['endpointId', 'gpuId'],
    defaultGrouping: 'endpointId',
    unsupported: {
      podId:
        'API v2 bills Serverless per endpoint only, not per worker pod (billing-api-v2.md §2); use --grouping endpointId or gpuId',
    },
    filters: ['endpointId', 'gpuId'],
  },
  'network-volume': {
    family: 'storage',
    source: 'network-volumes',
    groupings: [],
    defaultGrouping: null,
    unsupported: {},
    filters: [],
  },
};

/** The `cost` column a grouping or filter reads. */
export const COST_COLUMN: Record<Grouping, string> = {
  podId: 'resource_id',
  endpointId: 'resource_id',
  gpuId: 'gpu_type_id',
};
