-- One row per budget and day of its period as of report_clock: the day's actual spend in the budget's scope (null
-- after as_of_date), the cumulative actual from the period's start (to as_of_date), and the cumulative forecast with
-- its 80 % range (from as_of_date on: the actual so far plus what is expected of each day still to come). Spend is
-- what the budget alerts read: rpt_spend_by_resource_daily restricted to the budget's account and scope, or with a
-- category scope that allocation value's share (rpt_allocated_daily); the forecast is rpt_month_forecast's for a
-- month budget over an account or a family, else the scope's own (rpt_running_forecast_in) – as sql/alerts/budget_*.
-- What the /budgets page draws and rpt_budgets sums.
create or replace view rpt_budget_days as
with budgets as (
    select * from budget_periods
),

spend as (
    select * from rpt_spend_by_resource_daily
),

allocated as (
    select * from rpt_allocated_daily
),

month_days as (
    select * from rpt_month_forecast_days
),

scoped as (
    select b.name, s.family || ':' || coalesce(s.resource_id, '') as resource, s.day, s.amount,
    from budgets as b
    join spend as s
        on b.category is null
        and (b.account is null or s.account = b.account)
        and (b.family is null or s.family = b.family)
        and (b.template is null or s.template_id = b.template or s.template_name = b.template)
        and (b.endpoint is null or s.endpoint_id = b.endpoint or s.endpoint_name = b.endpoint)
        and (b.gpu_type is null or s.gpu_type_id = b.gpu_type or s.gpu_type_name = b.gpu_type)
        and s.day <= b.as_of_date
    where not b.whole_month_forecast
    union all
    select b.name, a.family || ':' || coalesce(a.resource_id, '') as resource, a.day, a.amount,
    from budgets as b
    join allocated as a
        on a.category = b.category
        and a.value = b.value
        and (b.account is null or a.account = b.account)
        and a.day <= b.as_of_date
),

-- each budget's scope as one series of its resources (the macro adds a total, 'all', the same here)
scope_series as (
    select name as account, 'scope' as family, resource, day, amount,
    from scoped
),

scope_forecast as (
    select * from rpt_running_forecast_in(scope_series) where family <> 'all'
),

-- every budget's days as series: the scope's one, or the workbook's account series (one per account when the
-- budget covers all accounts)
series_days as (
    select b.name, f.account as series, f.day, f.amount, f.expected_amount, f.history_days,
        f.range_low_ratio, f.range_high_ratio,
    from budgets as b
    join month_days as f
        on (b.account is null or f.account = b.account)
        and f.family = coalesce(b.family, 'all')
    where b.whole_month_forecast
        and f.day >= b.period_start
        and f.day < b.period_end
    union all
    select b.name, 'scope' as series, f.day, f.amount, f.expected_amount, f.history_days,
        f.range_low_ratio, f.range_high_ratio,
    from budgets as b
    join scope_forecast as f on f.account = b.name
    where f.day >= b.period_start
        and f.day < b.period_end
),

-- the running sums per series: the range scales what is still to come by the series' own back-test ratios
series_running as (
    select
        name,
        series,
        day,
        amount,
        sum(coalesce(amount, 0)) over running as cumulative_amount,
        sum(coalesce(expected_amount, 0)) over running as cumulative_expected,
        history_days > 0 as has_history,
        range_low_ratio,
        range_high_ratio,
    from series_days
    window running as (partition by name, series order by day rows between unbounded preceding and current row)
),

calendar as (
    select b.name, b.as_of_date, unnest(generate_series(b.period_start, b.period_end - 1, interval 1 day))::date as day,
    from budgets as b
),

per_day as (
    select
        c.name,
        c.day,
        c.as_of_date,
        -- the day's spend; a budget without spend yet spent 0 up to today, and nothing is known after it
        case when c.day <= c.as_of_date then coalesce(sum(r.amount), 0) end as amount,
        case when c.day <= c.as_of_date then coalesce(sum(r.cumulative_amount), 0) end as cumulative_amount,
        case when bool_or(r.has_history) and c.day >= c.as_of_date
            then coalesce(sum(r.cumulative_amount + r.cumulative_expected), 0) end as forecast_cumulative,
        case when bool_or(r.has_history) and c.day >= c.as_of_date
            then sum(r.cumulative_amount + round(r.cumulative_expected * (1 + r.range_low_ratio), 6)) end as low,
        case when bool_or(r.has_history) and c.day >= c.as_of_date
            then sum(r.cumulative_amount + round(r.cumulative_expected * (1 + r.range_high_ratio), 6)) end as high,
    from calendar as c
    left join series_running as r on r.name = c.name and r.day = c.day
    group by c.name, c.day, c.as_of_date
),

final as (
    select
        p.name as budget,
        p.day,
        p.amount::decimal(18,6) as amount,
        p.cumulative_amount::decimal(18,6) as cumulative_amount,
        p.forecast_cumulative::decimal(18,6) as forecast_cumulative,
        -- never below what is already spent
        greatest(p.low, p.actual_so_far)::decimal(18,6) as forecast_low_cumulative,
        p.high::decimal(18,6) as forecast_high_cumulative,
    from (
        select *, max(cumulative_amount) over (partition by name) as actual_so_far from per_day
    ) as p
)

select * from final;
