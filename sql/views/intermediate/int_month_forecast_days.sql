-- One row per account, family (plus family = 'all' for the account's total) and day from the start of the previous
-- month of report_clock (or the family's first billed day, if later) to the end of the current month: the actual
-- amount up to as_of_date and, for the rest of the current month, the expected amount and its spread
-- (int_weekday_forecast_in, the weekday forecast the budget alerts use too), which rpt_month_forecast turns into a
-- forecast and a range.
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

forecast as (
    select * from int_weekday_forecast_in(per_series)
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
        f.sigma,
    from forecast as f, clock
    where f.day < clock.next_month_start
)

select * from final;
