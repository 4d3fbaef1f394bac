-- A table macro: one row per ended UTC day of the 60 up to last_day of the metric and scope that cost the most in
-- first_day … last_day (inclusive): its trailing-7-day unit cost (rpt_unit_cost_daily) as the chart's actual, and
-- subject, the metric and scope as a person reads them: "Cost per GPU-hour, whole account (account demo)", "Cost
-- per image, endpoint sdxl-image-api (account demo)" – a metric counted in the plural (images) is a cost per one of
-- them. The unit-cost chart of the nightly report.
create or replace macro rpt_unit_cost_trend_in(first_day, last_day) as table
with clock as (
    select * from report_clock
),

-- rpt_unit_cost_daily read in place twice, not as one CTE: each read keeps its own day filter, which DuckDB carries
-- down to the days it computes
largest as (
    select account, metric, scope
    from rpt_unit_cost_daily
    where day between first_day and last_day and quantity > 0
    group by account, metric, scope
    order by sum(cost) desc nulls last, metric, scope
    limit 1
),

final as (
    select
        u.day,
        u.unit_cost_7d as actual,
        null::decimal(18,2) as forecast,
        null::decimal(18,2) as low,
        null::decimal(18,2) as high,
        null::decimal(18,2) as budget,
        'Cost per ' || case u.metric when 'gpu_hours' then 'GPU-hour' else regexp_replace(u.metric, '([^s])s$', '\1') end
            || ', ' || case when u.scope = '' then 'whole account'
                else regexp_replace(regexp_replace(u.scope, '^gpuType:', 'GPU type:'), ':', ' ') end
            || ' (account ' || u.account || ')' as subject,
    from rpt_unit_cost_daily as u
    semi join largest as l on l.account = u.account and l.metric = u.metric and l.scope = u.scope
    where u.day > last_day - 60 and u.day <= last_day and u.unit_cost_7d is not null
        and u.day < (select as_of_date from clock)
)

select * from final;
