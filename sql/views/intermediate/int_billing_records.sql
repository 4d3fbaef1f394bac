-- One row per record of the family billing routes (pods, serverless, network-volumes, endpoints, clusters) in one
-- wide shape: the family's amount components side by side (gpu, cpu, disk, fee, standard, high_performance,
-- networking, usage), null where a family has no such component. Every extracted bucket size; the aggregate route
-- is not a family (it only reconciles: int_aggregate_amounts, rpt_reconciliation).

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view int_billing_records as
with pods as (
    select * from billing_pods
),

serverless as (
    select * from billing_serverless
),

network_volumes as (
    select * from billing_network_volumes
),

endpoints as (
    select * from billing_endpoints
),

clusters as (
    select * from billing_clusters
),

unioned as (
    select
        account, 'pod' as family, bucket_size, start_time, end_time, pod_id as resource_id,
        gpu_amount as gpu, -- pods.gpuAmount → pod/gpu
        cpu_amount as cpu, -- pods.cpuAmount → pod/cpu
        disk_amount as disk, -- pods.diskAmount → pod/disk
    from pods
    union all by name
    select
        account, 'serverless' as family, bucket_size, start_time, end_time, serverless_id as resource_id,
        gpu_amount as gpu, -- serverless.gpuAmount → serverless/gpu
        cpu_amount as cpu, -- serverless.cpuAmount → serverless/cpu
        disk_amount as disk, -- serverless.diskAmount → serverless/disk
        fee_amount as fee, -- serverless.feeAmount → serverless/fee
    from serverless
    union all by name
    select
        account, 'storage' as family, bucket_size, start_time, end_time, network_volume_id as resource_id,
        standard_amount as standard, -- network-volumes.standardAmount → storage/standard
        high_performance_amount as high_performance, -- network-volumes.highPerformanceAmount → storage/high_performance
    from network_volumes
    union all by name
    select
        account, 'public_endpoint' as family, bucket_size, start_time, end_time, null::varchar as resource_id,
        total_amount as usage, -- endpoints.totalAmount → public_endpoint/usage
    from endpoints
    union all by name
    select
        account, 'cluster' as family, bucket_size, start_time, end_time, cluster_id as resource_id,
        gpu_amount as gpu, -- clusters.gpuAmount → cluster/gpu
        disk_amount as disk, -- clusters.diskAmount → cluster/disk
        networking_amount as networking, -- clusters.networkingAmount → cluster/networking
    from clusters
),

final as (
    select
        account,
        family,
        bucket_size,
        start_time as bucket_start,
        end_time as bucket_end,
        resource_id,
        gpu::decimal(18,6) as gpu,
        cpu::decimal(18,6) as cpu,
        disk::decimal(18,6) as disk,
        fee::decimal(18,6) as fee,
        standard::decimal(18,6) as standard,
        high_performance::decimal(18,6) as high_performance,
        networking::decimal(18,6) as networking,
        usage::decimal(18,6) as usage,
    from unioned
)

select * from final;
