-- One row: the headline figures of the month of report_clock over all accounts – month to date, forecast and its
-- range (rpt_month_forecast, family 'all'), the previous month to the same day and in full with the change against
-- each (change_pct in percent, one decimal), the forecast's method and its back-test error (the largest of the
-- accounts'), and the waste found (rpt_waste). What the workbooks' summary shows; the budget columns are added by
-- the report, which knows the budget.
create or replace view rpt_summary_figures as
with forecast as (
    select * from rpt_month_forecast where family = 'all'
),

findings as (
    select * from rpt_waste
),

waste as (
    select
        coalesce(sum(monthly_cost), 0) as waste_monthly,
        count(*) as waste_findings,
    from findings
),

totals as (
    select
        sum(month_to_date) as month_to_date,
        sum(forecast) as forecast,
        sum(forecast_low) as forecast_low,
        sum(forecast_high) as forecast_high,
        sum(previous_month_same_day) as previous_month_same_day,
        sum(previous_month) as previous_month,
        max(days_elapsed) as days_elapsed,
        max(days_in_month) as days_in_month,
        max(forecast_method) as forecast_method,
        max(backtest_error_pct) as backtest_error_pct,
    from forecast
),

final as (
    select
        totals.*,
        month_to_date - previous_month_same_day as change_amount,
        case when previous_month_same_day <> 0
            then round((month_to_date - previous_month_same_day) * 100.0 / previous_month_same_day, 1)
        end as change_pct,
        month_to_date - previous_month as month_change_amount,
        case when previous_month <> 0
            then round((month_to_date - previous_month) * 100.0 / previous_month, 1)
        end as month_change_pct,
        waste.waste_monthly,
        waste.waste_findings,
    from totals, waste
)

select * from final;
