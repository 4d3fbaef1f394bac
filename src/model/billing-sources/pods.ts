// GET /v2/billing/pods: one record per pod and bucket (billing-api-v2.md §2). Hourly detail for the last two weeks
// by default, because idle GPUs show up by the hour.
import { defineBillingSource } from './define.ts';

export const pods = defineBillingSource({
  source: 'pods',
  rowIs: 'One row per pod and bucket',
  path: '/v2/billing/pods',
  idField: 'podId',
  uniqueCountKey: 'uniquePodCount',
  inventoryKind: 'pod',
  amounts: {
    totalAmount: null,
    gpuAmount: ['pod', 'gpu'],
    cpuAmount: ['pod', 'cpu'],
    diskAmount: ['pod', 'disk'],
  },
  defaultBucketSizes: [{ size: 'day' }, { size: 'hour', lastDays: 14 }],
});
