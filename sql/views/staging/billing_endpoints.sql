-- One row per bucket of public model endpoint usage (not Serverless) (/v2/billing/endpoints): the latest version
-- the API returned for that bucket (re-reads replace, never append).
-- Public interface (DESIGN.md): columns and names are stable.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view billing_endpoints as
with source as (
    select * from raw_billing_endpoints
),

final as (
    select
        account,
        bucket_size,
        start_time,
        end_time,
        total_amount,
    from source
)

select * from final;
