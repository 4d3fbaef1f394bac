-- One row per cost_daily row of the previous and the current month of report_clock up to as_of_date, flagged with
-- the windows the by-template, by-endpoint, by-GPU-type and top-resources reports compare: month to date (the open
-- day included), the previous month to the same day of month (the whole month when it is shorter), the previous
-- month; and the same two windows up to the last ended day (the open day left out: top movers compare whole days) –
-- with the row's amount in each (month_to_date, previous_month_to_date, previous_month, month_to_last_day,
-- previous_month_to_last_day: 0 outside it).
create or replace view cost_month_windows as
with clock as (
    select * from report_clock
),

costs as (
    select * from cost_daily
),

flagged as (
    select
        c.*,
        c.day >= clock.month_start as in_month_to_date,
        c.day < clock.month_start and c.day < clock.prev_month_start + clock.day_of_month as in_previous_month_to_date,
        c.day < clock.month_start as in_previous_month,
        c.day >= clock.month_start and c.day < clock.as_of_date as in_month_to_last_day,
        c.day < clock.month_start and c.day < clock.prev_month_start + clock.day_of_month - 1 as in_previous_month_to_last_day,
    from costs as c, clock
    where c.day >= clock.prev_month_start and c.day <= clock.as_of_date
),

-- the amount in each window (0 outside it), named as the reports name their sums: sum(columns('^(…)$')) says them
final as (
    select
        *,
        case when in_month_to_date then amount else 0 end as month_to_date,
        case when in_previous_month_to_date then amount else 0 end as previous_month_to_date,
        case when in_previous_month then amount else 0 end as previous_month,
        case when in_month_to_last_day then amount else 0 end as month_to_last_day,
        case when in_previous_month_to_last_day then amount else 0 end as previous_month_to_last_day,
    from flagged
)

select * from final;
