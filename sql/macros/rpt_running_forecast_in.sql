-- A table macro: one row per series of the relation named `daily` and forecast day, exactly
-- int_running_forecast_in – the forecast of rpt_month_forecast – under a report name, so that an alert (which reads
-- report views only) forecasts a budget's scope as the page forecasts a family.
create or replace macro rpt_running_forecast_in(daily) as table
select * from int_running_forecast_in(daily);
