-- One row: a budget's period as of report_clock ($period 'month' or 'week', UTC), the spend in it so far (actual,
-- including the open day) and a forecast of its end: actual + what rpt_running_forecast_in (the forecast of
-- rpt_month_forecast) expects of each day still to come, null without history. Spend is
-- rpt_spend_by_resource_daily restricted to $account (null: all accounts) and the scope: $family, $template,
-- $endpoint, $gpu_type (ids or names; null: any) – or, with $category and $value, that allocation value's share
-- (rpt_allocated_daily). forecast_low is the low end of the forecast's 80 % range, as rpt_month_forecast's: what is
-- still to come scaled by the back-test's range_low_ratio, never below the actual.
with clock as (
    select * from report_clock
),

period as (
    select
        as_of_date,
        case when $period = 'week' then date_trunc('week', as_of_date)::date else month_start end as period_start,
        case when $period = 'week' then (date_trunc('week', as_of_date) + interval 7 day)::date else next_month_start end
            as period_end,
    from clock
),

scoped as (
    select c.family || ':' || coalesce(c.resource_id, '') as resource, c.day, c.amount
    from rpt_spend_by_resource_daily as c, period as p
    where $category::varchar is null
        and ($account::varchar is null or c.account = $account)
        and ($family::varchar is null or c.family = $family)
        and ($template::varchar is null or c.template_id = $template or c.template_name = $template)
        and ($endpoint::varchar is null or c.endpoint_id = $endpoint or c.endpoint_name = $endpoint)
        and ($gpu_type::varchar is null or c.gpu_type_id = $gpu_type or c.gpu_type_name = $gpu_type)
        and c.day <= p.as_of_date
    union all
    -- an allocation value's cost after rules and splits
    select a.family || ':' || coalesce(a.resource_id, '') as resource, a.day, a.amount
    from rpt_allocated_daily as a, period as p
    where $category::varchar is not null
        and a.category = $category
        and a.value = $value
        and ($account::varchar is null or a.account = $account)
        and a.day <= p.as_of_date
),

-- the scope as one series of its resources, so the forecast is the page's own (rpt_running_forecast_in): the same
-- running set, persistence and new work, from the scope's first spend (hence all of its days, not only the window's)
daily as (
    select 'scope' as account, 'scope' as family, resource, day, amount,
    from scoped
),

-- the scope's own series (the macro adds an account total, 'all', the same here)
forecast as (
    select * from rpt_running_forecast_in(daily) where family <> 'all'
),

actual as (
    select coalesce(sum(s.amount) filter (where s.day >= p.period_start), 0) as actual,
    from period as p
    left join scoped as s on true
),

to_come as (
    select
        coalesce(sum(f.expected_amount), 0) as amount,
        coalesce(sum(f.expected_amount * (1 + f.range_low_ratio)), 0) as low_amount,
        coalesce(max(f.history_days), 0) > 0 as has_history,
    from forecast as f, period as p
    where f.day >= p.as_of_date and f.day < p.period_end
),

final as (
    select
        p.period_start,
        p.period_end,
        p.as_of_date,
        a.actual::decimal(18,2) as actual,
        -- without history there is no forecast, as on the page
        case when t.has_history then round(a.actual + t.amount, 2)::decimal(18,2) end as forecast,
        case when t.has_history then round(a.actual + greatest(t.low_amount, 0), 2)::decimal(18,2) end as forecast_low,
        t.has_history,
    from period as p, actual as a, to_come as t
)

select * from final;
