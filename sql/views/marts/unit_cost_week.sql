-- One row per account, metric, scope and UTC day of unit_cost_daily: the day's cost, quantity and unit cost
-- beside the trailing 7 days' (the day and the 6 before it that have a value): cost and quantity summed and
-- unit_cost_7d = their ratio as DECIMAL(38,9) (integers, rounded half up), so a noisy day is smoothed by its week;
-- cost_7d is null when any of those days' cost is unknown. The day and its week in one pass: rpt_unit_cost_7d and
-- rpt_unit_cost_daily are columns of it.
create or replace view unit_cost_week as
with daily as (
    select * from unit_cost_daily
),

windowed as (
    select
        *,
        case when count(cost) over week = count(*) over week then sum(cost) over week end::decimal(38,6) as cost_7d,
        sum(quantity) over week::decimal(38,6) as quantity_7d,
        bool_or(estimated) over week as estimated_7d,
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
        (cost_7d * 1000000)::hugeint as cost_micros,
        (quantity_7d * 1000000)::hugeint as quantity_micros,
    from windowed
),

final as (
    select
        * exclude (estimated_7d, cost_micros, quantity_micros),
        int_unit_ratio(cost_micros, quantity_micros) as unit_cost_7d,
        estimated_7d,
    from integers
)

select * from final;
