-- One row per account whose synced billing starts too late for the anomaly window to be scored in full: a day is
-- scored against the days of synced billing before it, and needs at least 5 of them (anomaly_days.sql), so the days
-- of the last $window_days before report_clock that come earlier than first_scored_day are left out – the dry run
-- and the log say so instead of calling every series new spend.
with clock as (
    select * from report_clock
),

coverage as (
    select * from rpt_data_freshness
),

first_days as (
    select account, min(loaded_from)::date as first_covered_day,
    from coverage
    where source <> 'inventory' and loaded_from is not null
    group by account
),

final as (
    select
        f.account,
        f.first_covered_day,
        f.first_covered_day + 5 as first_scored_day,
        c.as_of_date - $window_days::integer as window_start,
    from first_days as f, clock as c
    where f.first_covered_day + 5 > c.as_of_date - $window_days::integer
)

select * from final
order by account;
