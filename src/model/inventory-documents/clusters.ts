import { defineInventoryDocument } from './define.ts';

export const CLUSTER = defineInventoryDocument({
  kind: 'cluster',
  view: 'stg_clusters',
  route: { name: 'clusters', path: '/v2/clusters', key: 'clusters' },
  rowIs: 'One row per version of an Instant Cluster (GET /v2/clusters, billing-api-v2.md §3): typed and renamed. Versions tile time from -infinity to infinity.',
  idColumn: 'cluster_id',
  fields: [
    { column: 'cluster_name', path: 'name', type: 'varchar' },
    { column: 'cluster_type', path: 'type', type: 'varchar' },
    { column: 'gpu_type_id', path: 'compute.gpuTypeId', type: 'varchar' },
    { column: 'gpu_count_per_pod', path: 'compute.gpuCountPerPod', type: 'integer' },
    { column: 'pod_count', path: 'compute.podCount', type: 'integer' },
    { column: 'template_ref', path: 'template', type: 'varchar', mayBeAbsent: true },
    { column: 'data_center_id', path: 'dataCenterId', type: 'varchar', mayBeAbsent: true },
    { column: 'created_at', path: 'createdAt', type: 'timestamptz' },
  ],
});
