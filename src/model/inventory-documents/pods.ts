import { defineInventoryDocument } from './define.ts';

export const POD = defineInventoryDocument({
  kind: 'pod',
  view: 'stg_pods',
  route: { name: 'pods', path: '/v2/pods', key: 'pods', query: { includeClusterPods: 'true' } },
  rowIs: 'One row per version of a pod (GET /v2/pods, billing-api-v2.md §3): typed and renamed; versions tile time from -infinity (first seen) to infinity (current – also after the pod vanished from the list).',
  idColumn: 'pod_id',
  fields: [
    { column: 'pod_name', path: 'name', type: 'varchar' },
    { column: 'status', path: 'status', type: 'varchar' },
    { column: 'image', path: 'image', type: 'varchar' },
    { column: 'gpu_type_id', path: 'gpu.id', type: 'varchar', comment: 'GPU type ids keep their whitespace exactly (some contain double spaces)', mayBeAbsent: true },
    { column: 'gpu_count', path: 'gpu.count', type: 'integer', mayBeAbsent: true },
    { column: 'cpu_type_id', path: 'cpu.id', type: 'varchar', mayBeAbsent: true },
    { column: 'vcpu_count', path: 'cpu.vcpuCount', type: 'integer', mayBeAbsent: true },
    { column: 'cloud', path: 'cloud', type: 'varchar' },
    { column: 'data_center_id', path: 'dataCenterId', type: 'varchar' },
    { column: 'template_ref', path: 'template', type: 'varchar', comment: 'null when the pod was created from a template id: the link is often missing' },
    { column: 'cost_per_hour', path: 'cost', type: 'decimal(18,6)' },
    { column: 'volume_gb', path: 'mounts.persistent.size', type: 'integer', mayBeAbsent: true },
    { column: 'network_volume_ids', path: 'mounts.network[*].volumeId', type: 'varchar[]', mayBeAbsent: true },
    { column: 'cluster_id', path: 'cluster.id', type: 'varchar', mayBeAbsent: true },
    { column: 'created_at', path: 'createdAt', type: 'timestamptz' },
    { column: 'started_at', path: 'startedAt', type: 'timestamptz' },
  ],
});
