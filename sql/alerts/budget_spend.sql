-- One row: a budget's period as of report_clock ($period 'month' or 'week', UTC), the spend in it so far (actual,
-- including the open day) and a forecast of its end: actual + for each day still to come the average spend of the
-- same weekday over the 4 weeks before today (today: what that average says is still to come). Spend is
-- rpt_spend_by_resource_daily restricted to $account (null: all accounts) and the scope: $family, $template,
-- $endpoint, $gpu_type (ids or names; null: any) – or, with $category and $value, that allocation value's share
-- (rpt_allocated_daily).
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
    select c.day, c.amount
    from rpt_spend_by_resource_daily as c, period as p
    where $category::varchar is null
        and ($account::varchar is null or c.account = $account)
        and ($family::varchar is null or c.family = $family)
        and ($template::varchar is null or c.template_id = $template or c.template_name = $template)
        and ($endpoint::varchar is null or c.endpoint_id = $endpoint or c.endpoint_name = $endpoint)
        and ($gpu_type::varchar is null or c.gpu_type_id = $gpu_type or c.gpu_type_name = $gpu_type)
        and c.day >= least(p.period_start, p.as_of_date - 28)
        and c.day <= p.as_of_date
    union all
    -- an allocation value's cost after rules and splits
    select a.day, a.amount
    from rpt_allocated_daily as a, period as p
    where $category::varchar is not null
        and a.category = $category
        and a.value = $value
        and ($account::varchar is null or a.account = $account)
        and a.day >= least(p.period_start, p.as_of_date - 28)
        and a.day <= p.as_of_date
),

history_start as (
    select min(day) as first_day from rpt_spend_by_resource_daily where $account::varchar is null or account = $account
),

forecast_days as (
    select * from rpt_forecast_days
),

-- the 28 complete days before today (int_forecast_days.is_history) that have data at all (a young database has
-- fewer)
reference_days as (
    select day from forecast_days where is_history
),

weekday_average as (
    select
        isodow(r.day) as weekday,
        coalesce(sum(s.amount), 0) / count(distinct r.day) as average,
    from reference_days as r
    cross join history_start as h
    left join scoped as s on s.day = r.day
    where r.day >= h.first_day
    group by 1
),

actual as (
    select
        coalesce(sum(s.amount) filter (where s.day >= p.period_start), 0) as actual,
        coalesce(sum(s.amount) filter (where s.day = p.as_of_date), 0) as today,
    from period as p
    left join scoped as s on true
),

days_to_come as (
    select f.day
    from forecast_days as f, period as p
    where f.day > p.as_of_date and f.day < p.period_end
),

to_come as (
    select coalesce(sum(w.average), 0) as amount
    from days_to_come as d
    left join weekday_average as w on w.weekday = isodow(d.day)
),

final as (
    select
        p.period_start,
        p.period_end,
        p.as_of_date,
        a.actual::decimal(18,2) as actual,
        round(
            a.actual
            + t.amount
            + greatest(coalesce((select average from weekday_average where weekday = isodow(p.as_of_date)), 0) - a.today, 0),
            2
        )::decimal(18,2) as forecast,
        (select count(*) from weekday_average) > 0 as has_history,
    from period as p, actual as a, to_come as t
)

select * from final;
