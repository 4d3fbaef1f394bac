-- One row per account and day of the current month of report_clock, all families together: the actual amount and
-- running total up to as_of_date, then the forecast path to the month's end with its 80 % range (the same method as
-- rpt_month_forecast, whose forecast the last day reaches).
create or replace view rpt_month_cumulative as
with clock as (
    select * from report_clock
),

days as (
    select d.*
    from rpt_month_forecast_days as d, clock
    where d.family = 'all' and d.day >= clock.month_start
),

running as (
    select
        *,
        sum(amount) over by_day as cumulative_amount,
        sum(coalesce(expected_amount, 0)) over by_day as expected_so_far,
        sum(share_to_come) over by_day as days_to_come_so_far,
        sum(amount) over (partition by account) as month_to_date,
    from days
    window by_day as (partition by account order by day rows between unbounded preceding and current row)
),

pathed as (
    select
        r.*,
        r.day > clock.as_of_date as is_forecast,
        case
            when r.day >= clock.as_of_date and r.history_days > 0
                then r.month_to_date + r.expected_so_far
        end as forecast_cumulative,
        case
            when r.day >= clock.as_of_date and r.history_days > 0 then round(r.expected_so_far * r.range_low_ratio, 6)::decimal(18,6)
        end as low_delta,
        case
            when r.day >= clock.as_of_date and r.history_days > 0 then round(r.expected_so_far * r.range_high_ratio, 6)::decimal(18,6)
        end as high_delta,
    from running as r, clock
),

final as (
    select
        account,
        day,
        amount,
        case when not is_forecast then cumulative_amount end as cumulative_amount,
        is_forecast,
        forecast_cumulative,
        -- greatest() skips nulls: guard it so that days without a forecast stay null
        case when forecast_cumulative is not null then greatest(forecast_cumulative + low_delta, month_to_date) end
            as forecast_low_cumulative,
        forecast_cumulative + high_delta as forecast_high_cumulative,
    from pathed
)

select * from final;
