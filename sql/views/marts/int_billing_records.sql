-- One row per record of the family billing routes (pods, Serverless, network volumes, public endpoints, clusters) in one wide shape: the family's amount components side by side, null where a family has no such component. Every extracted bucket size; the aggregate route is not a family (it only reconciles, rpt_reconciliation).
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

public_endpoints as (
    select * from billing_endpoints
),

clusters as (
    select * from billing_clusters
),

unioned as (
    select
        account, 'pod' as family, bucket_size, start_time, end_time, pod_id as resource_id,
        gpu_amount as gpu, cpu_amount as cpu, disk_amount as disk,
    from pods
    union all by name
    select
        account, 'serverless' as family, bucket_size, start_time, end_time, serverless_id as resource_id,
        gpu_amount as gpu, cpu_amount as cpu, disk_amount as disk, fee_amount as fee,
    from serverless
    union all by name
    select
        account, 'storage' as family, bucket_size, start_time, end_time, network_volume_id as resource_id,
        standard_amount as standard, high_performance_amount as high_performance,
    from network_volumes
    union all by name
    -- the route bills all public model endpoints of an account as one line, without an id
    select
        account, 'public_endpoint' as family, bucket_size, start_time, end_time, null::varchar as resource_id,
        total_amount as usage,
    from public_endpoints
    union all by name
    select
        account, 'cluster' as family, bucket_size, start_time, end_time, cluster_id as resource_id,
        gpu_amount as gpu, disk_amount as disk, networking_amount as networking,
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
