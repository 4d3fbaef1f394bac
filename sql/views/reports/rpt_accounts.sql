-- One row per platform account in the database: where its data comes from (the API, or simulated data) and when it
-- was last synced – the About sheet's list of sources.
create or replace view rpt_accounts as
with accounts as (
    select * from dim_account
),

final as (
    select
        account,
        data,
        api_url,
        last_sync_at,
    from accounts
)

select * from final;
