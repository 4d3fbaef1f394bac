// GET /v2/billing/endpoints: the account's public model endpoints (not Serverless), one record per bucket and no
// id – the route bills them all as one line, so totalAmount is itself the only component.
import { defineBillingSource } from './define.ts';

export const endpoints = defineBillingSource({
  source: 'endpoints',
  rowIs: 'One row per bucket of public model endpoint usage (not Serverless)',
  path: '/v2/billing/endpoints',
  idField: null,
  uniqueCountKey: null,
  inventoryKind: null,
  amounts: {
    totalAmount: ['public_endpoint', 'usage'],
  },
  defaultBucketSizes: [{ size: 'day' }],
});
