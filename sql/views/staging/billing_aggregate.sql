-- One row per bucket of the aggregated billing route, all families side by side (/v2/billing): the latest version
-- the API returned for that bucket (re-reads replace, never append).
-- Public interface (DESIGN.md): columns and names are stable.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view billing_aggregate as
with source as (
    select * from raw_billing_aggregate
),

final as (
    select
        account,
        bucket_size,
        start_time,
        end_time,
        total_amount,
        pod_gpu_amount,
        pod_cpu_amount,
        pod_disk_amount,
        serverless_gpu_amount,
        serverless_cpu_amount,
        serverless_disk_amount,
        serverless_fee_amount,
        storage_standard_amount,
        storage_high_performance_amount,
        endpoint_amount,
        cluster_gpu_amount,
        cluster_disk_amount,
        cluster_networking_amount,
    from source
)

select * from final;
