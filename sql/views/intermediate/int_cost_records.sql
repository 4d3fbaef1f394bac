-- One row per family billing record and non-zero amount component, at every extracted bucket size, before
-- attribution: the long form of the family routes (totalAmount is the sum of the components, billing-api-v2.md §2,
-- so it is not a row).

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view int_cost_records as
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
        account, 'pod' as family, bucket_size, start_time as bucket_start, end_time as bucket_end, pod_id as resource_id,
        unnest([
            {'component': 'gpu', 'amount': gpu_amount}, -- pods.gpuAmount → pod/gpu
            {'component': 'cpu', 'amount': cpu_amount}, -- pods.cpuAmount → pod/cpu
            {'component': 'disk', 'amount': disk_amount}, -- pods.diskAmount → pod/disk
        ], recursive := true),
    from pods
    union all
    select
        account, 'serverless' as family, bucket_size, start_time as bucket_start, end_time as bucket_end, serverless_id as resource_id,
        unnest([
            {'component': 'gpu', 'amount': gpu_amount}, -- serverless.gpuAmount → serverless/gpu
            {'component': 'cpu', 'amount': cpu_amount}, -- serverless.cpuAmount → serverless/cpu
            {'component': 'disk', 'amount': disk_amount}, -- serverless.diskAmount → serverless/disk
            {'component': 'fee', 'amount': fee_amount}, -- serverless.feeAmount → serverless/fee
        ], recursive := true),
    from serverless
    union all
    select
        account, 'storage' as family, bucket_size, start_time as bucket_start, end_time as bucket_end, network_volume_id as resource_id,
        unnest([
            {'component': 'standard', 'amount': standard_amount}, -- network-volumes.standardAmount → storage/standard
            {'component': 'high_performance', 'amount': high_performance_amount}, -- network-volumes.highPerformanceAmount → storage/high_performance
        ], recursive := true),
    from network_volumes
    union all
    select
        account, 'public_endpoint' as family, bucket_size, start_time as bucket_start, end_time as bucket_end, null::varchar as resource_id,
        unnest([
            {'component': 'usage', 'amount': total_amount}, -- endpoints.totalAmount → public_endpoint/usage
        ], recursive := true),
    from endpoints
    union all
    select
        account, 'cluster' as family, bucket_size, start_time as bucket_start, end_time as bucket_end, cluster_id as resource_id,
        unnest([
            {'component': 'gpu', 'amount': gpu_amount}, -- clusters.gpuAmount → cluster/gpu
            {'component': 'disk', 'amount': disk_amount}, -- clusters.diskAmount → cluster/disk
            {'component': 'networking', 'amount': networking_amount}, -- clusters.networkingAmount → cluster/networking
        ], recursive := true),
    from clusters
),

final as (
    select
        account,
        family,
        component,
        bucket_size,
        bucket_start,
        bucket_end,
        resource_id,
        amount::decimal(18,6) as amount,
    from unioned
    where amount <> 0
)

select * from final;
