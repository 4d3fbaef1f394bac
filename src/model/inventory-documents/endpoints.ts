import { defineInventoryDocument } from './define.ts';

export const ENDPOINT = defineInventoryDocument({
  kind: 'endpoint',
  view: 'stg_endpoints',
  route: { name: 'serverless', path: '/v2/serverless', key: 'endpoints' },
  rowIs: 'One row per version of a Serverless endpoint (GET /v2/serverless, billing-api-v2.md §3): typed and renamed; v2 carries no template id (see stg_graphql_endpoints). Versions tile time from -infinity to infinity.',
  idColumn: 'endpoint_id',
  fields: [
    { column: 'endpoint_name', path: 'name', type: 'varchar' },
    { column: 'endpoint_type', path: 'type', type: 'varchar' },
    { column: 'gpu_pools', path: 'gpu.pools[*]', type: 'varchar[]', mayBeAbsent: true },
    { column: 'gpu_count', path: 'gpu.count', type: 'integer', mayBeAbsent: true },
    { column: 'cpu_type_id', path: 'cpu.id', type: 'varchar', mayBeAbsent: true },
    { column: 'workers_min', path: 'workers.min', type: 'integer' },
    { column: 'workers_max', path: 'workers.max', type: 'integer' },
    { column: 'idle_timeout_s', path: 'workers.idleTimeout', type: 'integer', mayBeAbsent: true },
    { column: 'scaling_type', path: 'scaling.type', type: 'varchar' },
    { column: 'data_center_ids', path: 'dataCenterIds[*]', type: 'varchar[]' },
    { column: 'network_volume_ids', path: 'networkVolumes[*]', type: 'varchar[]' },
    { column: 'flashboot', path: 'flashboot', type: 'varchar' },
    { column: 'image', path: 'image', type: 'varchar' },
    { column: 'created_at', path: 'createdAt', type: 'timestamptz' },
  ],
});
