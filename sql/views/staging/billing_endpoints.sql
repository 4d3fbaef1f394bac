-- One row per bucket of public model endpoint usage (/v2/billing/endpoints; not Serverless): the latest version the API returned for that bucket (re-reads replace, never append).
-- Public interface (DESIGN.md): columns and names are stable.
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
