-- One row per pod and bucket (/v2/billing/pods): the latest version the API returned for that bucket (re-reads
-- replace, never append).
-- Public interface (DESIGN.md): columns and names are stable.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
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
