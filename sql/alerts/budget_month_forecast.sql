-- One row: month to date and the forecast of the month's end exactly as the workbook shows them
-- (rpt_month_forecast), for $account (null: all accounts together) and $family (null: every family), so a month
-- budget without a finer scope alerts on the same figures finance reads (forecast_low: the low end of its 80 % range).
with clock as (
    select * from report_clock
),

final as (
    select
        clock.month_start as period_start,
        clock.next_month_start as period_end,
        clock.as_of_date,
        coalesce(sum(f.month_to_date), 0)::decimal(18,2) as actual,
        round(sum(f.forecast), 2)::decimal(18,2) as forecast,
        round(sum(f.forecast_low), 2)::decimal(18,2) as forecast_low,
        count(f.forecast) > 0 as has_history,
    from clock
    left join rpt_month_forecast as f
        on ($account::varchar is null or f.account = $account)
        and f.family = coalesce($family::varchar, 'all')
    group by all
)

select * from final;
