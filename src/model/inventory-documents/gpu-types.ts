import { defineInventoryDocument } from './define.ts';

export const GPU_TYPE = defineInventoryDocument({
  kind: 'gpu_type',
  view: 'stg_gpu_types',
  route: { name: 'gpus', path: '/v2/catalog/gpus', key: 'gpus' },
  rowIs: 'One row per version of a GPU type in the catalog (GET /v2/catalog/gpus, billing-api-v2.md §3) with its list prices per GPU and hour. Versions tile time from -infinity to infinity.',
  idColumn: 'gpu_type_id',
  idComment: 'kept exactly: some ids contain double spaces',
  fields: [
    { column: 'gpu_type_name', path: 'name', type: 'varchar' },
    { column: 'pool', path: 'pool', type: 'varchar' },
    { column: 'manufacturer', path: 'manufacturer', type: 'varchar' },
    { column: 'memory_gb', path: 'memory', type: 'integer' },
    { column: 'available_secure', path: 'secure', type: 'boolean' },
    { column: 'available_community', path: 'community', type: 'boolean' },
    { column: 'price_secure', path: 'price.secure', type: 'decimal(18,6)' },
    { column: 'price_community', path: 'price.community', type: 'decimal(18,6)' },
    { column: 'price_serverless', path: 'price.serverless', type: 'decimal(18,6)', mayBeAbsent: true },
    { column: 'max_count_secure', path: 'maxCount.secure', type: 'integer' },
    { column: 'max_count_community', path: 'maxCount.community', type: 'integer' },
  ],
});
