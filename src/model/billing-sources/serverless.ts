// GET /v2/billing/serverless: one record per Serverless endpoint and bucket (billing-api-v2.md §2).
import { defineBillingSource } from './define.ts';

export const serverless = defineBillingSource({
  source: 'serverless',
  rowIs: 'One row per Serverless endpoint and bucket',
  path: '/v2/billing/serverless',
  idField: 'serverlessId',
  uniqueCountKey: 'uniqueServerlessCount',
  inventoryKind: 'endpoint',
  amounts: {
    totalAmount: null,
    gpuAmount: ['serverless', 'gpu'],
    cpuAmount: ['serverless', 'cpu'],
    diskAmount: ['serverless', 'disk'],
    feeAmount: ['serverless', 'fee'],
  },
  defaultBucketSizes: [{ size: 'day' }, { size: 'hour', lastDays: 14 }],
});
