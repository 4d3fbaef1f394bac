-- One row per account, series (a family, template, endpoint or GPU type) and complete day of the last $window_days
-- days before report_clock whose spend departs upward from its baseline: the median and MAD of the same series over
-- the $baseline_days days before it (only days of the same kind – weekday or weekend – when $weekday_aware), with a
-- robust score = (amount − median) / max(1.4826 × MAD, 10 % of the median, 1 cent). A row needs score ≥ $threshold
-- and amount − median ≥ $min_cost. Days a series spent nothing count as 0, so a series waking up is seen too.
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

recent as (
    select c.*
    from cost_daily as c, bounds as b
    where c.day >= b.baseline_start and c.day <= b.last_day
),

series_days as (
    select account, 'family' as dimension, family as series_id, family as series_name, day, sum(amount) as amount,
    from recent
    group by all
    union all
    select account, 'template', template_id, max(template_name), day, sum(amount),
    from recent
    where template_id is not null
    group by account, template_id, day
    union all
    select account, 'endpoint', endpoint_id, max(endpoint_name), day, sum(amount),
    from recent
    where endpoint_id is not null
    group by account, endpoint_id, day
    union all
    select account, 'gpu_type', gpu_type_id, max(gpu_type_name), day, sum(amount),
    from recent
    where gpu_type_id is not null
    group by account, gpu_type_id, day
),

series as (
    select account, dimension, series_id, max(series_name) as series_name,
    from series_days
    group by all
),

days as (
    select unnest(generate_series(b.baseline_start, b.last_day, interval 1 day))::date as day,
    from bounds as b
),

-- every series on every day, 0 where it spent nothing
grid as (
    select s.account, s.dimension, s.series_id, s.series_name, d.day, coalesce(sd.amount, 0) as amount,
    from series as s
    cross join days as d
    left join series_days as sd
        on sd.account = s.account and sd.dimension = s.dimension and sd.series_id = s.series_id and sd.day = d.day
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
        e.account,
        e.dimension,
        e.series_id,
        e.series_name,
        e.day,
        e.amount,
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
