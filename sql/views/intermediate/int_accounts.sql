-- One row per platform account gpuledger has synced: the API it was read from, whether the data is simulated (data:
-- 'SIMULATED DATA' or 'live API'), and its first and last sync.
create or replace view int_accounts as
with accounts as (
    select * from stg_accounts
),

final as (
    select
        account,
        api_url,
        simulated,
        case when simulated then 'SIMULATED DATA' else 'live API' end as data,
        first_sync_at,
        last_sync_at,
    from accounts
)

select * from final;
