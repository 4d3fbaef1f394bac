// GET /v2/billing/clusters: one record per Instant Cluster and bucket (billing-api-v2.md §2).
import { defineBillingSource } from './define.ts';

export const clusters = defineBillingSource({
  source: 'clusters',
  rowIs: 'One row per Instant Cluster and bucket',
  path: '/v2/billing/clusters',
  idField: 'clusterId',
  uniqueCountKey: 'uniqueClusterCount',
  inventoryKind: 'cluster',
  amounts: {
    totalAmount: null,
    gpuAmount: ['cluster', 'gpu'],
    diskAmount: ['cluster', 'disk'],
    networkingAmount: ['cluster', 'networking'],
  },
  defaultBucketSizes: [{ size: 'day' }],
});
