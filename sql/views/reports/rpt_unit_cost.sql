-- One row per account, metric, scope and UTC day: the scope's cost that day (int_scope_cost_daily), the metric's
-- quantity and unit_cost = cost ÷ quantity as DECIMAL(38,9), computed in integers (micro-dollars ÷ micro-units) and
-- rounded half up at the ninth decimal; null when quantity is 0 or the day's cost is not known. estimated: the
-- quantity is derived (jobs from queue samples, GPU-hours from list prices), not imported. Computed in
-- unit_cost_daily.
create or replace view rpt_unit_cost as
with daily as (
    select * from unit_cost_daily
),

final as (
    select * from daily
)

select * from final;
