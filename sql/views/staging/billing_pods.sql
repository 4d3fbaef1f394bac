-- One row per pod and bucket (/v2/billing/pods): the latest version the API returned for that bucket (re-reads replace, never append).
-- Public interface (DESIGN.md): columns and names are stable.
create or replace view billing_pods as
with source as (
    select * from raw_billing_pods
),

final as (
    select
        account,
        bucket_size,
        start_time,
        end_time,
        pod_id,
        total_amount,
        gpu_amount,
        cpu_amount,
        disk_amount,
    from source
)

select * from final;
