-- One row per network volume and bucket (/v2/billing/network-volumes): the latest version the API returned for that
-- bucket (re-reads replace, never append).
-- Public interface (DESIGN.md): columns and names are stable.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view billing_network_volumes as
with source as (
    select * from raw_billing_network_volumes
),

final as (
    select
        account,
        bucket_size,
        start_time,
        end_time,
        network_volume_id,
        total_amount,
        standard_amount,
        high_performance_amount,
    from source
)

select * from final;
