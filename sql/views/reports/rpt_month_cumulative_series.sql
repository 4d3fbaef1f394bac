-- One row per day of the current month of report_clock, every account together: the running actual up to as_of_date,
-- then the forecast path to the month's end with its 80 % range (rpt_month_cumulative, summed over the accounts) –
-- the series the cumulative chart draws, actual and forecast in separate columns so a line ends where the other begins.
create or replace view rpt_month_cumulative_series as
with cumulative as (
    select * from rpt_month_cumulative
),

final as (
    select
        day,
        sum(case when not is_forecast then cumulative_amount end) as actual,
        sum(case when is_forecast then forecast_cumulative end) as forecast,
        sum(case when is_forecast then forecast_low_cumulative end) as forecast_low,
        sum(case when is_forecast then forecast_high_cumulative end) as forecast_high,
    from cumulative
    group by day
)

select * from final;
