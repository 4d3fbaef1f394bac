-- One row per account and family, plus a family = 'all' row per account: the month of report_clock to date and a
-- forecast of its end – what is running at the last complete day going on at its own weekday/weekend rate, as long
-- as the account's resources have gone on, plus new work at the rate the account starts it (int_running_forecast_in)
-- – with an 80 % range from the account's own back-test (split-conformal over the errors of the same forecast of
-- the same number of days from each of the last 90 days), beside the previous month to the same day and in full.
-- forecast_method names the method; backtest_error is the median absolute error of those back-test forecasts, the
-- figure a person reads as "within ±x % half the time".
create or replace view rpt_month_forecast as
with clock as (
    select * from report_clock
),

days as (
    select * from rpt_month_forecast_days
),

per_series as (
    select
        d.account,
        d.family,
        coalesce(sum(d.amount) filter (where d.day >= clock.month_start), 0) as month_to_date,
        sum(d.expected_amount) filter (where d.day >= clock.month_start) as expected_to_come,
        sum(d.share_to_come) filter (where d.day >= clock.month_start) as days_to_come,
        coalesce(sum(d.amount) filter (
            where d.day >= clock.prev_month_start
            and d.day < clock.month_start
            and d.day < clock.prev_month_start + clock.day_of_month
        ), 0) as previous_month_same_day,
        coalesce(sum(d.amount) filter (where d.day >= clock.prev_month_start and d.day < clock.month_start), 0)
            as previous_month,
        sum(d.expected_amount) filter (where d.day >= clock.month_start) as to_come_amount,
        any_value(d.history_days) as history_days,
        any_value(d.range_low_ratio) as range_low_ratio,
        any_value(d.range_high_ratio) as range_high_ratio,
        any_value(d.backtest_origins) as backtest_origins,
        any_value(d.backtest_median_error) as backtest_median_error,
    from days as d, clock
    group by all
),

ranged as (
    select
        *,
        -- the range scales what is still to come by the back-test's error percentiles; what is billed is known
        case when history_days > 0 then round(coalesce(expected_to_come, 0) * range_low_ratio, 6)::decimal(18,6) end as low_delta,
        case when history_days > 0 then round(coalesce(expected_to_come, 0) * range_high_ratio, 6)::decimal(18,6) end as high_delta,
        case when history_days > 0 then month_to_date + coalesce(expected_to_come, 0) end as forecast,
    from per_series
),

final as (
    select
        r.account,
        r.family,
        clock.month_start,
        clock.as_of,
        clock.day_of_month as days_elapsed,
        clock.days_in_month,
        r.month_to_date,
        r.forecast,
        -- greatest() skips nulls: without history there is no forecast and no range
        case when r.forecast is not null then greatest(r.forecast + r.low_delta, r.month_to_date) end as forecast_low,
        r.forecast + r.high_delta as forecast_high,
        r.previous_month_same_day,
        r.previous_month,
        case when r.forecast is not null then 'running resources + new-work rate' end as forecast_method,
        case when r.backtest_origins >= 8 then round(r.backtest_median_error * 100, 1)::decimal(9,1) end as backtest_error_pct,
    from ranged as r, clock
)

select * from final;
