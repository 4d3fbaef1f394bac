-- A table macro: one row per series of the relation named `daily` and forecast day (int_forecast_days) from the
-- series' first billed day, with the amount billed (null after as_of_date) and, for what is still to come, the
-- expected amount – the series' average for the day's weekday over the 28 complete days before as_of_date, the
-- overall average where that weekday has no history – and the residual spread (sigma) a range is drawn from.
-- `daily` holds (account, family, day, amount) rows up to as_of_date: a series is an (account, family) pair, and a
-- day it has no row for counts as 0. The weekday forecast said once, for rpt_month_forecast (through
-- int_month_forecast_days) and the budget alerts (sql/alerts/budget_spend.sql, through rpt_weekday_forecast_in):
-- the alert used to average on its own – counting the days before a scope's first spend as 0, a weekday without
-- history as 0, the means unrounded – so a budget could forecast another figure than the page; the page's is kept.
create or replace macro int_weekday_forecast_in(daily) as table
with clock as (
    select * from report_clock
),

amounts as (
    select d.account, d.family, d.day, sum(d.amount) as amount,
    from query_table(daily) as d, clock
    where d.day <= clock.as_of_date
    group by all
),

series as (
    select account, family, min(day) as first_day,
    from amounts
    group by all
),

forecast_days as (
    select * from int_forecast_days
),

-- every forecast day from the series' first day, zero where nothing was billed
days as (
    select
        s.account,
        s.family,
        f.day,
        f.weekday,
        case when f.day <= clock.as_of_date then coalesce(a.amount, 0) end as amount,
        f.is_history,
        f.share_to_come,
    from series as s
    cross join clock
    join forecast_days as f on f.day >= s.first_day
    left join amounts as a on a.account = s.account and a.family = s.family and a.day = f.day
),

weekday_means as (
    select account, family, weekday, avg(amount) as mean,
    from days
    where is_history
    group by all
),

overall_means as (
    select account, family, avg(amount) as mean, count(*) as history_days,
    from days
    where is_history
    group by all
),

residuals as (
    select
        d.account,
        d.family,
        -- degrees of freedom: one mean per weekday seen
        sqrt(sum(power(d.amount - w.mean, 2)) / greatest(count(*) - count(distinct d.weekday), 1)) as sigma,
    from days as d
    join weekday_means as w using (account, family, weekday)
    where d.is_history
    group by all
),

expected as (
    select
        d.account,
        d.family,
        d.day,
        d.amount,
        coalesce(w.mean, o.mean) as day_mean,
        o.history_days,
        r.sigma,
        d.share_to_come,
    from days as d
    left join weekday_means as w using (account, family, weekday)
    left join overall_means as o using (account, family)
    left join residuals as r using (account, family)
),

final as (
    select
        account,
        family,
        day,
        amount,
        -- money stays DECIMAL: the mean is rounded to micro-dollars before it is summed. The open day is expected
        -- to end at its weekday mean: what is still to come is the mean less what is billed so far (never negative)
        case
            when share_to_come = 1 and day_mean is not null
                then round(day_mean, 6)::decimal(18,6)
            when share_to_come > 0 and day_mean is not null
                then greatest(round(day_mean, 6)::decimal(18,6) - amount, 0)
        end as expected_amount,
        share_to_come,
        coalesce(history_days, 0) as history_days,
        sigma,
    from expected
)

select * from final;
