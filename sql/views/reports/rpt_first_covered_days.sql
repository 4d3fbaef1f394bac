-- One row per account with synced billing: first_covered_day, the first day its billing was synced for (the earliest
-- loaded_from of rpt_data_freshness over the billing sources) – where an anomaly baseline can start.
create or replace view rpt_first_covered_days as
with coverage as (
    select * from rpt_data_freshness
),

final as (
    select account, min(loaded_from)::date as first_covered_day,
    from coverage
    where source <> 'inventory' and loaded_from is not null
    group by account
)

select * from final;
