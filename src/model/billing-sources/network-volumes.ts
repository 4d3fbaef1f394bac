// GET /v2/billing/network-volumes: one record per network volume and bucket (billing-api-v2.md §2). The route was
// spelled /v2/billing/networkvolumes until August 2026; an older deployment may only know that spelling.
import { defineBillingSource } from './define.ts';

export const networkVolumes = defineBillingSource({
  source: 'network-volumes',
  rowIs: 'One row per network volume and bucket',
  path: '/v2/billing/network-volumes',
  oldPaths: ['/v2/billing/networkvolumes'],
  idField: 'networkVolumeId',
  uniqueCountKey: 'uniqueNetworkVolumeCount',
  inventoryKind: 'network_volume',
  amounts: {
    totalAmount: null,
    standardAmount: ['storage', 'standard'],
    highPerformanceAmount: ['storage', 'high_performance'],
  },
  defaultBucketSizes: [{ size: 'day' }],
});
