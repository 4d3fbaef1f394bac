-- One row per account, family (plus family = 'all' for the account's total) and day from the start of the previous
-- month of report_clock (or the family's first billed day, if later) to the end of the current month: the actual
-- amount up to as_of_date, and for the rest of the current month the expected amount – the per-weekday average of
-- the last 28 complete days (4 weeks; the overall average where a weekday has no history) – with the residual
-- spread (sigma) that rpt_month_forecast turns into a range. The days, their history window and the share still to
-- come are int_forecast_days, shared with the budget alerts.
create or replace view int_month_forecast_days as
with clock as (
    select * from report_clock
),

costs as (
    select * from cost_daily
),

per_family as materialized (
    select c.account, c.family, c.day, sum(c.amount) as amount,
    from costs as c, clock
    where c.day <= clock.as_of_date
    group by all
),

per_series as materialized (
    select * from per_family
    union all
    select account, 'all' as family, day, sum(amount) as amount,
    from per_family
    group by all
),

series as (
    select account, family, min(day) as first_day,
    from per_series
    group by all
),

forecast_days as (
    select * from int_forecast_days
),

-- every day from the series' first day (or the window start) to the end of the month, zero where nothing was billed
calendar as (
    select s.account, s.family, f.day, f.weekday, f.is_history, f.share_to_come,
    from series as s
    cross join clock
    join forecast_days as f on f.day >= s.first_day and f.day < clock.next_month_start
),

days as (
    select
        cal.account,
        cal.family,
        cal.day,
        cal.weekday,
        case when cal.day <= clock.as_of_date then coalesce(p.amount, 0) end as amount,
        cal.is_history,
        cal.share_to_come,
    from calendar as cal
    cross join clock
    left join per_series as p using (account, family, day)
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
        d.weekday,
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
        history_days,
        sigma,
    from expected
)

select * from final;
