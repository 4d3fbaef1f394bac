// GET /v2/billing: the account's whole bill per bucket, one record per bucket, every family's components side by
// side. It is not a family of `cost`; it reconciles the family routes (rpt_reconciliation), as finance compares it
// with the invoice.
import { defineBillingSource } from './define.ts';

export const aggregate = defineBillingSource({
  source: 'aggregate',
  rowIs: 'One row per bucket of the aggregated billing route, all families side by side',
  path: '/v2/billing',
  idField: null,
  uniqueCountKey: null,
  inventoryKind: null,
  amounts: {
    totalAmount: null,
    podGpuAmount: ['pod', 'gpu'],
    podCpuAmount: ['pod', 'cpu'],
    podDiskAmount: ['pod', 'disk'],
    serverlessGpuAmount: ['serverless', 'gpu'],
    serverlessCpuAmount: ['serverless', 'cpu'],
    serverlessDiskAmount: ['serverless', 'disk'],
    serverlessFeeAmount: ['serverless', 'fee'],
    storageStandardAmount: ['storage', 'standard'],
    storageHighPerformanceAmount: ['storage', 'high_performance'],
    endpointAmount: ['public_endpoint', 'usage'],
    clusterGpuAmount: ['cluster', 'gpu'],
    clusterDiskAmount: ['cluster', 'disk'],
    clusterNetworkingAmount: ['cluster', 'networking'],
  },
  defaultBucketSizes: [{ size: 'day' }],
});
