import { defineInventoryDocument } from './define.ts';

export const NETWORK_VOLUME = defineInventoryDocument({
  kind: 'network_volume',
  view: 'stg_network_volumes',
  route: { name: 'network-volumes', path: '/v2/network-volumes', key: 'networkVolumes' },
  rowIs: 'One row per version of a network volume (GET /v2/network-volumes, billing-api-v2.md §3): typed and renamed. Versions tile time from -infinity to infinity.',
  idColumn: 'network_volume_id',
  fields: [
    { column: 'network_volume_name', path: 'name', type: 'varchar' },
    { column: 'size_gb', path: 'size', type: 'integer' },
    { column: 'data_center_id', path: 'dataCenter', type: 'varchar' },
    { column: 'volume_type', path: 'type', type: 'varchar' },
  ],
});
