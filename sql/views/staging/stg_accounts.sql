-- One row per platform account gpuledger has synced (_meta_accounts): the API it was read from, whether that was
-- the built-in simulator, and its first and last sync.
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
    from source
)

select * from final;
