-- One row per UTC day around report_clock, from the start of the forecast history (the earlier of the previous
-- month's start and as_of_date − 28) to the end of the later of the current month and the current ISO week: its
-- weekday, whether it is one of the 28 complete days before as_of_date that a weekday forecast averages over
-- (is_history), and the share of the day still to come at as_of (1 for later days, 0 for past ones, the rest of the
-- open day for as_of_date). The forecast days of rpt_month_forecast and of the budget alerts
-- (sql/alerts/budget_spend.sql), which int_running_forecast_in reads.
create or replace view rpt_forecast_days as
with clock as (
    select * from report_clock
),

calendar as (
    select
        unnest(generate_series(
            least(clock.prev_month_start, clock.as_of_date - 28),
            greatest(clock.next_month_start, (date_trunc('week', clock.as_of_date) + interval 7 day)::date) - 1,
            interval 1 day
        ))::date as day,
    from clock
),

final as (
    select
        cal.day,
        isodow(cal.day) as weekday,
        cal.day < clock.as_of_date and cal.day >= clock.as_of_date - 28 as is_history,
        case
            when cal.day > clock.as_of_date then 1.0
            when cal.day = clock.as_of_date
                then 1.0 - (epoch(clock.as_of) - epoch(make_timestamptz(epoch_us(clock.as_of) // 86400000000 * 86400000000))) / 86400.0
            else 0.0
        end as share_to_come,
    from calendar as cal, clock
)

select * from final;
