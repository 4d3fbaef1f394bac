import { defineInventoryDocument } from './define.ts';

export const GRAPHQL_ENDPOINT = defineInventoryDocument({
  kind: 'graphql_endpoint',
  view: 'stg_graphql_endpoints',
  rowIs: 'One row per version of a Serverless endpoint as the deprecated GraphQL API lists it (billing-api-v2.md §4): the only source of the endpoint → template link. Versions tile time from -infinity to infinity.',
  idColumn: 'endpoint_id',
  fields: [
    { column: 'endpoint_name', path: 'name', type: 'varchar' },
    { column: 'template_id', path: 'templateId', type: 'varchar', emptyIsNull: true },
    { column: 'gpu_pools', path: 'gpuIds', type: 'varchar[]', commaList: true, comment: 'a comma-separated list of pool ids in GraphQL' },
    { column: 'workers_min', path: 'workersMin', type: 'integer' },
    { column: 'workers_max', path: 'workersMax', type: 'integer' },
    { column: 'idle_timeout_s', path: 'idleTimeout', type: 'integer' },
    { column: 'network_volume_id', path: 'networkVolumeId', type: 'varchar', emptyIsNull: true },
    { column: 'scaler_type', path: 'scalerType', type: 'varchar' },
    { column: 'scaler_value', path: 'scalerValue', type: 'integer' },
    { column: 'locations', path: 'locations', type: 'varchar', emptyIsNull: true },
  ],
});
