-- One row per account, family, UTC day, component and resource, as in `cost_daily` (one bucket size per day, so the rows add up without double counting), with the day's month: the lake's `cost_daily` table, partitioned account=/family=/month=.
with daily as (
    select * from cost_daily
),

final as (
    select
        *,
        strftime(day, '%Y-%m') as month,
    from daily
)

select * from final
order by account, family, month, day, resource_id, component
