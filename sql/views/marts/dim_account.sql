-- One row per platform account gpuledger has synced: the API it was read from, whether the data is simulated (data:
-- 'SIMULATED DATA' or 'live API'), and its first and last sync.
create or replace view dim_account as
with accounts as (
    select * from int_accounts
),

final as (
    select * from accounts
)

select * from final;
