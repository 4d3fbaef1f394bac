-- One row per account, metric, scope and UTC day of rpt_unit_cost: the trailing 7 days ending that day (the day and
-- the 6 before it that have a value), cost and quantity summed and unit_cost = their ratio as DECIMAL(38,9)
-- (integers, rounded half up), so a noisy day is smoothed by its week. Same columns as rpt_unit_cost; cost is null
-- when any of those days' cost is unknown. Computed in unit_cost_week.
create or replace view rpt_unit_cost_7d as
with weeks as (
    select * from unit_cost_week
),

-- the week's columns under the day's names
final as (
    select
        columns('^(account|metric|scope|day)$'),
        columns('^(cost|quantity|unit_cost|estimated)_7d$') as '\1',
    from weeks
)

select * from final;
