-- One row per account and family, plus a family = 'all' row per account: the month of report_clock to date and a
-- forecast of its end – the per-weekday average of the last 4 complete weeks for the days still to come – with a
-- 90 % range from the spread of those weeks' residuals, beside the previous month to the same day and in full.
create or replace view rpt_month_forecast as
with clock as (
    select * from report_clock
),

days as (
    select * from int_month_forecast_days
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
        any_value(d.history_days) as history_days,
        any_value(d.sigma) as sigma,
    from days as d, clock
    group by all
),

ranged as (
    select
        *,
        -- future days' errors add up (k·σ²), and the weekday means themselves are estimates (k²·σ²/n); z = 1.645
        case
            when history_days > 0
                then round(1.645 * sigma * sqrt(days_to_come + days_to_come * days_to_come / history_days), 6)::decimal(18,6)
        end as half_width,
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
        case when r.forecast is not null then greatest(r.forecast - r.half_width, r.month_to_date) end as forecast_low,
        r.forecast + r.half_width as forecast_high,
        r.previous_month_same_day,
        r.previous_month,
    from ranged as r, clock
)

select * from final;
