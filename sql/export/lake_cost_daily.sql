-- One row per account, family, UTC day, component and resource, as in `cost_daily` (one bucket size per day, so the
-- rows add up without double counting), with the day's month: the lake's `cost_daily` table, partitioned
-- account=/family=/month=. The amount carries the same DECIMAL(18,6) as `cost` (a day of hourly amounts fits; a
-- value that did not would fail the export, never be rounded).
with daily as (
    select * from cost_daily
),

final as (
    select
        -- the subject key is gpuledger's own join key (a 128-bit integer no lake engine reads alike): not exported
        * exclude (subject_id) replace (amount::decimal(18, 6) as amount),
        strftime(day, '%Y-%m') as month,
    from daily
)

select * from final
order by account, family, month, day, resource_id, component
