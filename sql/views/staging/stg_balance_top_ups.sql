-- One row per top-up of an account's prepaid balance (stripeReloadHistory, balance-and-queue.md §1) – one per
-- identity (account, completion time, type, medium), its latest version when a store holds more (the amount was
-- once part of the key; 016_balance_top_up_identity.sql); credits_amount is signed (DEBIT and PAYOUT take money
-- out).
create or replace view stg_balance_top_ups as
with source as (
    select * from raw_balance_top_ups
),

latest as (
    select *
    from source
    qualify row_number() over (
        partition by account, completed_at, type, coalesce(medium, '')
        order by _extracted_at desc, _load_id desc
    ) = 1
),

renamed as (
    select
        account,
        completed_at,
        type as top_up_type,
        medium as top_up_medium,
        amount,
        case when type in ('DEBIT', 'PAYOUT') then -abs(amount) else amount end as credits_amount,
        _load_id as load_id,
    from latest
),

final as (
    select * from renamed
)

select * from final;
