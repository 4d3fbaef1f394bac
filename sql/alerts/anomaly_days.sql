-- One row per account, series (a family, template, endpoint or GPU type) and complete day of the last $window_days
-- days before report_clock whose spend departs upward from its baseline: the median and MAD of the same series over
-- the $baseline_days days before it (only days of the same kind – weekday or weekend – when $weekday_aware), with a
-- robust score = (amount − median) / max(1.4826 × MAD, 10 % of the median, 1 cent). A row needs score ≥ $threshold
-- and amount − median ≥ $min_cost and a baseline of at least 5 days. Days a series spent nothing count as 0, so a
-- series waking up is seen too – but only days inside the account's synced billing (rpt_spend_by_series_daily's
-- first_covered_day): before it nothing is known, so a young database has short baselines and no alert.
with clock as (
    select * from report_clock
),

bounds as (
    select
        as_of_date - $window_days::integer as first_day,
        as_of_date - 1 as last_day,
        as_of_date - $window_days::integer - $baseline_days::integer as baseline_start,
    from clock
),

series_days as (
    select sd.*
    from rpt_spend_by_series_daily as sd, bounds as b
    where sd.day >= b.baseline_start and sd.day <= b.last_day
),

series as (
    select account, dimension, series_id, max(series_name) as series_name, any_value(first_covered_day) as first_covered_day,
    from series_days
    group by all
),

days as (
    select unnest(generate_series(b.baseline_start, b.last_day, interval 1 day))::date as day,
    from bounds as b
),

-- every series on every day the account's billing was synced for, 0 where it spent nothing; a day before the first
-- synced day is not a day of $0 but a day nobody knows, so it is no part of any baseline
grid as (
    select s.account, s.dimension, s.series_id, s.series_name, d.day, coalesce(sd.amount, 0) as amount,
    from series as s
    cross join days as d
    left join series_days as sd
        on sd.account = s.account and sd.dimension = s.dimension and sd.series_id = s.series_id and sd.day = d.day
    where s.first_covered_day is not null and d.day >= s.first_covered_day
),

evaluated as (
    select g.*
    from grid as g, bounds as b
    where g.day >= b.first_day
),

baseline as (
    select e.account, e.dimension, e.series_id, e.day, b.amount,
    from evaluated as e
    join grid as b
        on b.account = e.account and b.dimension = e.dimension and b.series_id = e.series_id
        and b.day >= e.day - $baseline_days::integer and b.day < e.day
        and (not $weekday_aware::boolean or (isodow(b.day) >= 6) = (isodow(e.day) >= 6))
),

medians as (
    select account, dimension, series_id, day, median(amount)::double as median, count(*) as baseline_days,
    from baseline
    group by all
),

mads as (
    select b.account, b.dimension, b.series_id, b.day, median(abs(b.amount::double - m.median)) as mad,
    from baseline as b
    join medians as m using (account, dimension, series_id, day)
    group by all
),

scored as (
    select
        e.*,
        round(m.median, 2)::decimal(18,2) as baseline_median,
        round(d.mad, 2)::decimal(18,2) as baseline_mad,
        m.baseline_days,
        (e.amount::double - m.median) / greatest(1.4826 * d.mad, 0.1 * m.median, 0.01) as score,
    from evaluated as e
    join medians as m using (account, dimension, series_id, day)
    join mads as d using (account, dimension, series_id, day)
),

final as (
    select
        *,
        case when baseline_median > 0 then round(amount / baseline_median, 1) end as ratio,
    from scored
    where score >= $threshold::double
        and amount - baseline_median >= $min_cost::decimal(18,2)
        and baseline_days >= 5
)

select * from final
order by account, dimension, series_id, day;
