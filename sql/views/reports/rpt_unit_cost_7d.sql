-- One row per account, metric, scope and UTC day of rpt_unit_cost: the trailing 7 days ending that day (the day and
-- the 6 before it that have a value), cost and quantity summed and unit_cost = their ratio as DECIMAL(38,9)
-- (integers, rounded half up), so a noisy day is smoothed by its week. Same columns as rpt_unit_cost; cost is null
-- when any of those days' cost is unknown.
create or replace view rpt_unit_cost_7d as
with daily as (
    select * from rpt_unit_cost
),

windowed as (
    select
        account,
        metric,
        scope,
        day,
        case when count(cost) over week = count(*) over week then sum(cost) over week end::decimal(38,6) as cost,
        sum(quantity) over week::decimal(38,6) as quantity,
        bool_or(estimated) over week as estimated,
    from daily
    window week as (
        partition by account, metric, scope
        order by day
        range between interval 6 days preceding and current row
    )
),

integers as (
    select
        *,
        (cost * 1000000)::hugeint as cost_micros,
        (quantity * 1000000)::hugeint as quantity_micros,
    from windowed
),

final as (
    select
        account,
        metric,
        scope,
        day,
        cost,
        quantity,
        case when quantity_micros > 0 then
            ((2 * cost_micros * 1000000000 + quantity_micros) // (2 * quantity_micros))::decimal(38,0) * 0.000000001::decimal(10,9)
        end as unit_cost,
        estimated,
    from integers
)

select * from final;
