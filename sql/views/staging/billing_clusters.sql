-- One row per Instant Cluster and bucket (/v2/billing/clusters): the latest version the API returned for that
-- bucket (re-reads replace, never append).
-- Public interface (DESIGN.md): columns and names are stable.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view billing_clusters as
with source as (
    select * from raw_billing_clusters
),

final as (
    select
        account,
        bucket_size,
        start_time,
        end_time,
        cluster_id,
        total_amount,
        gpu_amount,
        disk_amount,
        networking_amount,
    from source
)

select * from final;
