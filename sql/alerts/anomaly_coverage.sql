-- One row per account and day of the last $window_days before report_clock that the anomaly rule cannot score, with
-- why: anomaly_days.sql scores a day against the days of the account's synced billing in the $baseline_days before
-- it – only days of the same kind (weekday or weekend) when $weekday_aware – and needs at least 5 of them.
-- like_days is how many it has; short_history says the baseline window reaches back before the first synced day (a
-- young database: sync.start further back helps), and when it does not, the window itself holds too few like days
-- (weekend days in a short baseline). The dry run and the log name these days instead of calling every series new
-- spend.
with clock as (
    select * from report_clock
),

first_days as (
    select * from rpt_first_covered_days
),

calendar as (
    select unnest(generate_series(c.as_of_date - $window_days::integer - $baseline_days::integer, c.as_of_date - 1, interval 1 day))::date as day,
    from clock as c
),

window_days as (
    select cal.day
    from calendar as cal, clock as c
    where cal.day >= c.as_of_date - $window_days::integer
),

like_days as (
    select
        f.account,
        f.first_covered_day,
        w.day,
        count(b.day) as like_days,
        w.day - $baseline_days::integer < f.first_covered_day as short_history,
    from first_days as f
    cross join window_days as w
    left join calendar as b
        on b.day >= greatest(f.first_covered_day, w.day - $baseline_days::integer) and b.day < w.day
        and (not $weekday_aware::boolean or (isodow(b.day) >= 6) = (isodow(w.day) >= 6))
    group by all
),

final as (
    select
        account,
        first_covered_day,
        day,
        case when not $weekday_aware::boolean then 'day' when isodow(day) >= 6 then 'weekend day' else 'weekday' end as kind,
        like_days::integer as like_days,
        short_history,
    from like_days
    where like_days < 5
)

select * from final
order by account, day;
