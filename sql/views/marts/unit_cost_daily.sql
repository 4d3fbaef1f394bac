-- One row per account, metric, scope and UTC day: the scope's cost that day (int_scope_cost_daily), the metric's
-- quantity and unit_cost = cost ÷ quantity as DECIMAL(38,9), computed in integers (micro-dollars ÷ micro-units) and
-- rounded half up at the ninth decimal; null when quantity is 0 or the day's cost is not known. estimated: the
-- quantity is derived (jobs from queue samples, GPU-hours from list prices), not imported. rpt_unit_cost shows it;
-- unit_cost_week adds the trailing week beside each day.
create or replace view unit_cost_daily as
with metrics as (
    select * from metrics_daily
),

scope_costs as (
    select * from int_scope_cost_daily
),

joined as (
    select
        m.account,
        m.metric,
        m.scope,
        m.day,
        c.cost,
        m.value::decimal(38,6) as quantity,
        m.estimated,
        (c.cost::decimal(38,6) * 1000000)::hugeint as cost_micros,
        (m.value::decimal(38,6) * 1000000)::hugeint as quantity_micros,
    from metrics as m
    left join scope_costs as c
        on c.account = m.account and c.day = m.day and c.scope = m.scope
),

final as (
    select
        * exclude (estimated, cost_micros, quantity_micros),
        int_unit_ratio(cost_micros, quantity_micros) as unit_cost,
        estimated,
    from joined
)

select * from final;
