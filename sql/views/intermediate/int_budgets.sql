-- One row per budget of the config (_meta_budgets): its scope, in words and as explorer filters, and the period of
-- report_clock it is in (the calendar month, or the ISO week, in UTC). whole_month_forecast says the budget is read
-- as budget_month_forecast.sql reads it – a month budget over an account or a family takes the workbook's own
-- forecast (rpt_month_forecast) –; every other budget forecasts its scope as one series (budget_spend.sql).
create or replace view int_budgets as
with budgets as (
    select * from stg_budgets
),

clock as (
    select * from int_report_clock
),

final as (
    select
        b.name,
        b.period,
        b.amount,
        b.account,
        b.family,
        b.template,
        b.endpoint,
        b.gpu_type,
        b.category,
        b.value,
        b.thresholds,
        case when b.period = 'week' then date_trunc('week', clock.as_of_date)::date else clock.month_start end
            as period_start,
        case when b.period = 'week' then (date_trunc('week', clock.as_of_date) + interval 7 day)::date
            else clock.next_month_start end as period_end,
        clock.as_of_date,
        b.period = 'month' and coalesce(b.template, b.endpoint, b.gpu_type, b.category) is null as whole_month_forecast,
        -- the words of the alert's message (src/alert/rules/budget.ts scopeText)
        coalesce(nullif(concat_ws(', ',
            'account ' || b.account,
            'family ' || b.family,
            'template ' || b.template,
            'endpoint ' || b.endpoint,
            'GPU ' || b.gpu_type,
            b.category || ' ' || b.value
        ), ''), 'all spend') as scope,
    from budgets as b, clock
)

select * from final;
