-- One row per platform account gpuledger has synced (_meta_accounts): the API it was read from, whether that was
-- the built-in simulator, its first and last sync, and how it pays as its config said at the last sync (billing:
-- 'auto', 'prepaid' or 'postpaid'; 022_account_billing.sql).
create or replace view stg_accounts as
with source as (
    select * from _meta_accounts
),

final as (
    select
        account,
        api_url,
        simulated,
        first_sync_at,
        last_sync_at,
        coalesce(billing, 'auto') as billing,
    from source
)

select * from final;
