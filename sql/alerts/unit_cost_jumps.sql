-- One row per account, metric and scope of rpt_unit_cost whose latest complete day (before report_clock's day, with
-- a quantity) cost at least $ratio times the median unit cost of the $baseline_days days before it, and at least
-- $min_cost: the day's cost, quantity and unit cost beside the baseline's medians, so the message can say whether
-- the cost rose or the volume fell. Medians are of DECIMAL values (quantile_disc picks a value, no averaging of
-- money).
with clock as (
    select * from report_clock
),

unit_costs as (
    select u.*
    from rpt_unit_cost as u, clock as c
    where u.day < c.as_of_date
        and u.day >= c.as_of_date - ($baseline_days::integer + 1)
        and u.quantity > 0
        and u.unit_cost is not null
),

latest as (
    select *
    from unit_costs
    qualify row_number() over (partition by account, metric, scope order by day desc) = 1
),

baseline as (
    select
        u.account,
        u.metric,
        u.scope,
        count(*) as baseline_days,
        quantile_disc(u.unit_cost, 0.5) as median_unit_cost,
        quantile_disc(u.cost, 0.5) as median_cost,
        quantile_disc(u.quantity, 0.5) as median_quantity,
    from unit_costs as u
    join latest as l using (account, metric, scope)
    where u.day < l.day
    group by all
),

final as (
    select
        l.account,
        l.metric,
        l.scope,
        l.day,
        l.cost,
        l.quantity,
        l.unit_cost,
        l.estimated,
        b.baseline_days,
        b.median_unit_cost,
        b.median_cost,
        b.median_quantity,
        round(l.unit_cost / b.median_unit_cost, 2) as ratio,
    from latest as l
    join baseline as b using (account, metric, scope)
    where b.baseline_days >= 7
        and b.median_unit_cost > 0
        and l.cost >= $min_cost::decimal(18,2)
        and l.unit_cost >= b.median_unit_cost * $ratio::decimal(9,3)
)

select * from final
order by ratio desc, account, metric, scope;
