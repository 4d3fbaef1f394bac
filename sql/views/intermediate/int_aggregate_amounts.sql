-- One row per bucket of the aggregated billing route (/v2/billing), family and component: the amount the aggregate
-- bills for it (what rpt_reconciliation compares with the family routes).

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view int_aggregate_amounts as
with aggregate_records as (
    select * from billing_aggregate
),

final as (
    select
        account,
        bucket_size,
        start_time as bucket_start,
        end_time as bucket_end,
        unnest([
            {'family': 'pod', 'component': 'gpu', 'amount': pod_gpu_amount}, -- aggregate.podGpuAmount → pod/gpu
            {'family': 'pod', 'component': 'cpu', 'amount': pod_cpu_amount}, -- aggregate.podCpuAmount → pod/cpu
            {'family': 'pod', 'component': 'disk', 'amount': pod_disk_amount}, -- aggregate.podDiskAmount → pod/disk
            {'family': 'serverless', 'component': 'gpu', 'amount': serverless_gpu_amount}, -- aggregate.serverlessGpuAmount → serverless/gpu
            {'family': 'serverless', 'component': 'cpu', 'amount': serverless_cpu_amount}, -- aggregate.serverlessCpuAmount → serverless/cpu
            {'family': 'serverless', 'component': 'disk', 'amount': serverless_disk_amount}, -- aggregate.serverlessDiskAmount → serverless/disk
            {'family': 'serverless', 'component': 'fee', 'amount': serverless_fee_amount}, -- aggregate.serverlessFeeAmount → serverless/fee
            {'family': 'storage', 'component': 'standard', 'amount': storage_standard_amount}, -- aggregate.storageStandardAmount → storage/standard
            {'family': 'storage', 'component': 'high_performance', 'amount': storage_high_performance_amount}, -- aggregate.storageHighPerformanceAmount → storage/high_performance
            {'family': 'public_endpoint', 'component': 'usage', 'amount': endpoint_amount}, -- aggregate.endpointAmount → public_endpoint/usage
            {'family': 'cluster', 'component': 'gpu', 'amount': cluster_gpu_amount}, -- aggregate.clusterGpuAmount → cluster/gpu
            {'family': 'cluster', 'component': 'disk', 'amount': cluster_disk_amount}, -- aggregate.clusterDiskAmount → cluster/disk
            {'family': 'cluster', 'component': 'networking', 'amount': cluster_networking_amount}, -- aggregate.clusterNetworkingAmount → cluster/networking
        ], recursive := true),
    from aggregate_records
)

select * from final;
