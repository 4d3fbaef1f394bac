-- One row per read of an account's prepaid balance (raw_balance_observations, balance-and-queue.md §1): USD and
-- USD/h as DECIMAL, at the platform's time.
create or replace view stg_balance_observations as
with source as (
    select * from raw_balance_observations
),

renamed as (
    select
        account,
        observed_at,
        balance,
        spend_per_hour,
        spend_limit as spend_limit_per_hour,
        under_balance,
        min_balance,
        source as balance_source,
        missing_fields,
        _load_id as load_id,
    from source
),

final as (
    select * from renamed
)

select * from final;
