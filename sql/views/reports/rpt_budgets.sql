-- One row per budget of the config and its period as of report_clock (the calendar month or ISO week, UTC): the
-- amount, the scope in words, the actual spend to date and the forecast of the period's end with its 80 % range and
-- method (rpt_budget_days: the figures the budget alerts compare), the thresholds crossed by the actual and the
-- first day the cumulative actual reached each, and the first day the forecast reaches the amount with the days
-- until then (0: already reached; null: not within the period, or no forecast yet).
create or replace view rpt_budgets as
with budgets as (
    select * from budget_periods
),

days as (
    select * from rpt_budget_days
),

totals as (
    select
        d.budget,
        max(d.cumulative_amount) as actual,
        max(d.forecast_cumulative) as forecast,
        max(d.forecast_low_cumulative) as forecast_low,
        max(d.forecast_high_cumulative) as forecast_high,
    from days as d
    group by all
),

-- each threshold, and the first day the cumulative actual reached its share of the amount
thresholds as (
    select
        b.name,
        t.threshold_pct,
        min(d.day) filter (where d.cumulative_amount >= b.amount * t.threshold_pct / 100) as crossed_on,
    from budgets as b
    cross join lateral (select unnest(b.thresholds) as threshold_pct) as t
    left join days as d on d.budget = b.name
    group by all
),

crossed as (
    select
        name,
        count(crossed_on)::integer as thresholds_crossed,
        max(threshold_pct) filter (where crossed_on is not null) as last_threshold_pct,
        max(crossed_on) as last_threshold_crossed_on,
        -- "50 % on 2026-10-12, 80 % on 2026-10-20": every crossing, in the order of the thresholds
        string_agg(printf('%g %% on %s', threshold_pct, crossed_on), ', ' order by threshold_pct)
            filter (where crossed_on is not null) as thresholds_crossed_on,
        string_agg(printf('%g', threshold_pct), ', ' order by threshold_pct) as thresholds,
    from thresholds
    group by all
),

-- the first day of the period whose cumulative actual (to date) or forecast (after it) reaches the amount
reaches as (
    select
        b.name,
        min(d.day) filter (where coalesce(d.forecast_cumulative, d.cumulative_amount) >= b.amount) as forecast_reaches_on,
    from budgets as b
    left join days as d on d.budget = b.name
    group by all
),

final as (
    select
        b.name as budget,
        b.period,
        b.period_start,
        b.period_end,
        b.as_of_date,
        b.amount,
        b.scope,
        b.account,
        b.family,
        b.template,
        b.endpoint,
        b.gpu_type,
        b.category,
        b.value,
        coalesce(t.actual, 0)::decimal(18,6) as actual,
        t.forecast::decimal(18,6) as forecast,
        t.forecast_low::decimal(18,6) as forecast_low,
        t.forecast_high::decimal(18,6) as forecast_high,
        case when t.forecast is not null then 'running resources + new-work rate' end as forecast_method,
        round(coalesce(t.actual, 0) * 100 / nullif(b.amount, 0), 1)::decimal(9,1) as actual_pct,
        round(t.forecast * 100 / nullif(b.amount, 0), 1)::decimal(9,1) as forecast_pct,
        c.thresholds,
        c.thresholds_crossed,
        c.last_threshold_pct,
        c.last_threshold_crossed_on,
        c.thresholds_crossed_on,
        r.forecast_reaches_on,
        case when r.forecast_reaches_on is not null
            then greatest(r.forecast_reaches_on - b.as_of_date, 0)::integer end as days_until_forecast_reaches,
    from budgets as b
    left join totals as t on t.budget = b.name
    left join crossed as c on c.name = b.name
    left join reaches as r on r.name = b.name
)

select * from final;
