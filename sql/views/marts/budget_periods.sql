-- One row per budget of the config (_meta_budgets): its scope, in words and as explorer filters, and the period of
-- report_clock it is in (the calendar month, or the ISO week, in UTC). whole_month_forecast says the budget is read
-- as budget_month_forecast.sql reads it – a month budget over an account or a family takes the workbook's own
-- forecast (rpt_month_forecast) –; every other budget forecasts its scope as one series (budget_spend.sql).
-- The mart the report views read; computed in int_budgets, which reads staging.
create or replace view budget_periods as
with budgets as (
    select * from int_budgets
),

final as (
    select * from budgets
)

select * from final;
