-- One row per account, family (plus family = 'all' for the account's total) and day from the start of the previous
-- month of report_clock (or the family's first billed day, if later) to the end of the current month: the actual
-- amount up to as_of_date and, for the rest of the current month, the expected amount and the range ratios
-- (int_running_forecast_in: what is running, how long it goes on, the new work the account starts – the forecast
-- the budget alerts use too), which rpt_month_forecast turns into a forecast and a range.
create or replace view rpt_month_forecast_days as
with clock as (
    select * from report_clock
),

costs as (
    select * from cost_daily
),

-- a resource is what bills on its own; one id can appear in two families (a pod and its volume's storage), so it is
-- named with its family
per_resource as materialized (
    select c.account, c.family, c.family || ':' || coalesce(c.resource_id, '') as resource, c.day, sum(c.amount) as amount,
    from costs as c, clock
    where c.day <= clock.as_of_date
    group by all
),

-- the macro adds each account's total as family 'all'
forecast as (
    select * from int_running_forecast_in(per_resource)
),

final as (
    select
        f.account,
        f.family,
        f.day,
        f.amount,
        f.expected_amount,
        f.share_to_come,
        f.history_days,
        f.range_low_ratio,
        f.range_high_ratio,
        f.backtest_origins,
        f.backtest_median_error,
    from forecast as f, clock
    where f.day < clock.next_month_start
)

select * from final;
