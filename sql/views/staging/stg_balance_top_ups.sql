-- One row per top-up of an account's prepaid balance (stripeReloadHistory, balance-and-queue.md §1), stored once however often it is read again; credits_amount is signed (DEBIT and PAYOUT take money out).
create or replace view stg_balance_top_ups as
with source as (
    select * from raw_balance_top_ups
),

renamed as (
    select
        account,
        completed_at,
        type as top_up_type,
        amount,
        case when type in ('DEBIT', 'PAYOUT') then -abs(amount) else amount end as credits_amount,
        _load_id as load_id,
    from source
),

final as (
    select * from renamed
)

select * from final;
