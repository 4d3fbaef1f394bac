-- A table macro: one row per series of the relation named `daily` and forecast day (rpt_forecast_days) from the
-- series' first billed day, with the amount billed (null after as_of_date) and, for what is still to come, the
-- expected amount, and per series the range of the forecast as ratios of what is still to come.
--
-- `daily` holds (account, family, resource, day, amount) rows up to as_of_date: a series is an (account, family)
-- pair, a resource anything that bills on its own (a pod, an endpoint, a volume). Each account also gets a series
-- family = 'all', the sum of its families' – forecast and back-test alike, so the families add up to the total.
-- The forecast follows what is running: from the last complete day (as_of_date − 1, the origin),
-- - every resource still running at the origin goes on at its own mean for the kind of day (weekday or weekend)
--   over its days of the last 28 (since its first spend, if later) – a weekday-only machine stays off on Sundays;
--   "running" is spending on the origin, or on the last Friday when the origin is a weekend day and the resource
--   never spends on weekends;
-- - how long such resources keep going is the account's own experience: for k days ahead, what resources running at
--   each of the last 90 origins really spent k days later against what their means said (a persistence ratio,
--   apart for resources younger than 7 days – a job – and older ones – a fleet);
-- - what is not running now (the next training job, a new endpoint) comes at the rate the account's new work came
--   k days after each of those origins, by kind of day.
-- A resource that ended is not running, so it is not forecast; a level shift is in the running set from its first
-- full day. The range is the account's own back-test: the forecast of the next H days (H = the days still to come)
-- from each of those origins against what happened; the 80 % range is split-conformal over those errors (errors).
create or replace macro int_running_forecast_in(daily) as table
with clock as (
    select * from report_clock
),

bounds as (
    select
        as_of_date,
        as_of_date - 1 as origin,
        -- 90 back-test origins, each with 28 days of history before it
        as_of_date - 1 - 90 as first_origin,
        as_of_date - 1 - 90 - 27 as grid_start,
    from clock
),

amounts as (
    select d.account, d.family, d.resource::varchar as resource, d.day, sum(d.amount) as amount,
    from query_table(daily) as d, clock
    where d.day <= clock.as_of_date
    group by all
),

series as (
    select account, family, min(day) as first_day,
    from amounts
    group by all
),

resources as (
    select account, family, resource, min(day) as first_day,
    from amounts
    group by all
),

-- every resource on every day of the grid from its first spend, 0 where it spent nothing (complete days only)
grid as materialized (
    select
        r.account,
        r.family,
        r.resource,
        r.first_day,
        g.day,
        isodow(g.day) >= 6 as weekend,
        coalesce(a.amount, 0) as amount,
    from resources as r
    cross join bounds as b
    cross join lateral (
        select unnest(generate_series(greatest(r.first_day, b.grid_start), b.origin, interval 1 day))::date as day
    ) as g
    left join amounts as a
        on a.account = r.account and a.family = r.family and a.resource = r.resource and a.day = g.day
    where r.first_day <= b.origin
),

-- at each day x of the grid (as an origin): the resource's mean for each kind of day over [x − 27, x] since its
-- first spend, whether it spends on weekends at all, and whether it is running at x
stats as materialized (
    select
        g.*,
        avg(g.amount) filter (where not g.weekend) over last_28 as weekday_mean,
        avg(g.amount) filter (where g.weekend) over last_28 as weekend_mean,
        coalesce(sum(g.amount) filter (where g.weekend) over last_28, 0) > 0 as spends_weekends,
        -- the last Friday on or before x
        max(g.amount) filter (where isodow(g.day) = 5) over last_3 as friday_amount,
    from grid as g
    window
        last_28 as (partition by g.account, g.family, g.resource order by g.day range between 27 preceding and current row),
        last_3 as (partition by g.account, g.family, g.resource order by g.day range between 2 preceding and current row)
),

running as materialized (
    select
        account,
        family,
        resource,
        day as origin,
        day - first_day < 7 as young,
        coalesce(weekday_mean, weekend_mean, 0) as weekday_mean,
        coalesce(weekend_mean, case when spends_weekends then weekday_mean else 0 end, 0) as weekend_mean,
    from stats
    where amount > 0 or (weekend and not spends_weekends and coalesce(friday_amount, 0) > 0)
),

horizons as (
    select unnest(generate_series(1, 31)) as k
),

origins as (
    select unnest(generate_series(b.first_origin, b.origin, interval 1 day))::date as origin,
    from bounds as b
),

-- back-test: for each past origin and k days ahead (a complete day), what the running resources' means said and what
-- they spent, and what everything not running then spent
backtest_running as (
    select
        r.account,
        r.family,
        r.young,
        h.k,
        sum(case when isodow(r.origin + h.k::integer) >= 6 then r.weekend_mean else r.weekday_mean end) as said,
        sum(coalesce(a.amount, 0)) as spent,
    from running as r
    cross join horizons as h
    cross join bounds as b
    left join amounts as a
        on a.account = r.account and a.family = r.family and a.resource = r.resource and a.day = r.origin + h.k::integer
    where r.origin >= b.first_origin and r.origin < b.origin and r.origin + h.k::integer <= b.origin
    group by all
),

persistence as (
    select
        account,
        family,
        young,
        k,
        -- bounded: a few unusual origins must not make the running set grow or vanish
        least(greatest(case when said > 0 then spent / said end, 0), 1.5) as ratio,
    from backtest_running
),

day_totals as (
    select account, family, day, sum(amount) as amount,
    from amounts
    group by all
),

-- what resources running at each origin – or running now, at the real origin, whose spend is forecast as running
-- and must not be counted again as new work – spent k days later
-- Two bases: 'now' leaves out what runs now too (the real forecast), 'then' only what ran then (the back-test's own
-- forecasts, which could not know what would still be running today – else their errors would all lean one way).
counted_as_running as (
    select distinct r.account, r.family, r.resource, o.origin, basis.basis,
    from running as r
    cross join origins as o
    cross join bounds as b
    cross join (select unnest(['now', 'then']) as basis) as basis
    where (r.origin = o.origin or (basis.basis = 'now' and r.origin = b.origin)) and o.origin < b.origin
),

running_spent as (
    select c.account, c.family, c.basis, c.origin, h.k, sum(a.amount) as amount,
    from counted_as_running as c
    cross join horizons as h
    cross join bounds as b
    join amounts as a
        on a.account = c.account and a.family = c.family and a.resource = c.resource and a.day = c.origin + h.k::integer
    where c.origin + h.k::integer <= b.origin
    group by all
),

-- new work k days after each origin: the day's whole spend less what the resources running then or now spent
new_work_days as (
    select
        s.account,
        s.family,
        basis.basis,
        o.origin,
        h.k,
        isodow(o.origin + h.k::integer) >= 6 as weekend,
        coalesce(t.amount, 0) - coalesce(rs.amount, 0) as amount,
    from series as s
    cross join (select unnest(['now', 'then']) as basis) as basis
    cross join origins as o
    cross join horizons as h
    cross join bounds as b
    left join day_totals as t on t.account = s.account and t.family = s.family and t.day = o.origin + h.k::integer
    left join running_spent as rs
        on rs.account = s.account and rs.family = s.family and rs.basis = basis.basis and rs.origin = o.origin and rs.k = h.k
    where o.origin >= s.first_day + 7 and o.origin < b.origin and o.origin + h.k::integer <= b.origin
),

new_work as (
    select account, family, basis, k, weekend, avg(amount) as amount,
    from new_work_days
    group by all
),

-- the curves for every k, the last measured one carried on where the history is too short to measure further
persistence_k as (
    select
        s.account, s.family, y.young, h.k,
        coalesce(
            p.ratio,
            last_value(p.ratio ignore nulls) over (partition by s.account, s.family, y.young order by h.k rows between unbounded preceding and current row),
            1
        ) as ratio,
    from series as s
    cross join (select unnest([true, false]) as young) as y
    cross join horizons as h
    left join persistence as p on p.account = s.account and p.family = s.family and p.young = y.young and p.k = h.k
),

new_work_k as (
    select
        s.account, s.family, basis.basis, w.weekend, h.k,
        coalesce(
            n.amount,
            last_value(n.amount ignore nulls) over (partition by s.account, s.family, basis.basis, w.weekend order by h.k rows between unbounded preceding and current row),
            0
        ) as amount,
    from series as s
    cross join (select unnest(['now', 'then']) as basis) as basis
    cross join (select unnest([true, false]) as weekend) as w
    cross join horizons as h
    left join new_work as n
        on n.account = s.account and n.family = s.family and n.basis = basis.basis and n.weekend = w.weekend and n.k = h.k
),

-- the forecast of day origin + k from any origin: running resources × persistence + new work (k ≤ 31: the longest
-- stretch still to come, a month from its first day)
predicted as materialized (
    select
        r.account,
        r.family,
        r.origin,
        h.k,
        sum(case when isodow(r.origin + h.k::integer) >= 6 then r.weekend_mean else r.weekday_mean end * p.ratio) as running_part,
    from running as r
    cross join horizons as h
    join persistence_k as p on p.account = r.account and p.family = r.family and p.young = r.young and p.k = h.k
    group by all
),

predicted_families as (
    select
        s.account,
        s.family,
        o.origin,
        h.k,
        coalesce(p.running_part, 0) + coalesce(n.amount, 0) as amount,
    from series as s
    cross join origins as o
    cross join horizons as h
    cross join bounds as b
    left join predicted as p on p.account = s.account and p.family = s.family and p.origin = o.origin and p.k = h.k
    left join new_work_k as n
        on n.account = s.account and n.family = s.family and n.k = h.k and n.weekend = (isodow(o.origin + h.k::integer) >= 6)
        and n.basis = case when o.origin = b.origin then 'now' else 'then' end
    where o.origin >= s.first_day
),

-- each account's total, the sum of its families
predicted_days as materialized (
    select * from predicted_families
    union all
    select account, 'all' as family, origin, k, sum(amount) as amount,
    from predicted_families
    group by all
),

series_totals as (
    select * from series
    union all
    select account, 'all' as family, min(first_day) as first_day,
    from series
    group by all
),

totals as materialized (
    select * from day_totals
    union all
    select account, 'all' as family, day, sum(amount) as amount,
    from day_totals
    group by all
),

forecast_days as (
    select * from rpt_forecast_days
),

-- the range is the month's: H = the days from the open one to the month's end
horizon as (
    select s.account, s.family, (clock.next_month_start - clock.as_of_date)::integer as h,
    from series_totals as s, clock
),

-- the range: from each past origin with H complete days after it, the forecast of those H days against them
backtest_sums as (
    select
        p.account,
        p.family,
        p.origin,
        sum(p.amount) as said,
        sum(coalesce(t.amount, 0)) as spent,
    from predicted_days as p
    join horizon as hz on hz.account = p.account and hz.family = p.family and p.k <= hz.h
    cross join bounds as b
    left join totals as t on t.account = p.account and t.family = p.family and t.day = p.origin + p.k::integer
    where p.origin >= b.first_origin and p.origin + hz.h <= b.origin
    group by all
),

-- The range is split-conformal over the back-test's errors: its origins overlap (each sums the next H days), so
-- they hold about origins ÷ H independent windows (n), and the 80 % range is the ⌈(n + 1) × 0.8⌉-th smallest of n
-- absolute errors – scaled to the origins, the error at rank ⌈(n + 1) × 0.8⌉ ÷ n of them (the largest when n is
-- small), on both sides of the forecast.
errors as (
    select
        b.account,
        b.family,
        abs(b.spent - b.said) / b.said as error,
        row_number() over (partition by b.account, b.family order by abs(b.spent - b.said) / b.said) as error_rank,
        count(*) over (partition by b.account, b.family) as origins,
        greatest(count(*) over (partition by b.account, b.family) / greatest(hz.h, 1), 1) as windows,
    from backtest_sums as b
    join horizon as hz on hz.account = b.account and hz.family = b.family
    where b.said > 0
),

calibration as (
    select
        account,
        family,
        any_value(origins) as origins,
        max(error) filter (where error_rank <= least(origins, ceil(least(1.0, ceil((windows + 1) * 0.8) / windows) * origins))) as range_error,
        median(error) as median_error,
    from errors
    group by all
),

days as (
    select
        s.account,
        s.family,
        f.day,
        case when f.day <= clock.as_of_date then coalesce(a.amount, 0) end as amount,
        f.is_history,
        f.share_to_come,
        (f.day - b.origin)::integer as k,
    from series_totals as s
    cross join clock
    cross join bounds as b
    join forecast_days as f on f.day >= s.first_day
    left join totals as a on a.account = s.account and a.family = s.family and a.day = f.day
),

-- complete days of the last 28 the series had: a forecast needs one
history as (
    select s.account, s.family, count(t.day) as history_days,
    from series_totals as s
    cross join bounds as b
    left join totals as t
        on t.account = s.account and t.family = s.family and t.day < b.as_of_date and t.day >= b.as_of_date - 28
    group by all
),

expected as (
    select
        d.*,
        case when d.k >= 1 then p.amount end as day_mean,
        hi.history_days,
    from days as d
    cross join bounds as b
    join history as hi on hi.account = d.account and hi.family = d.family
    left join predicted_days as p
        on p.account = d.account and p.family = d.family and p.origin = b.origin and p.k = least(d.k, 31)
),

final as (
    select
        e.account,
        e.family,
        e.day,
        e.amount,
        -- money stays DECIMAL: the mean is rounded to micro-dollars before it is summed. The open day is expected
        -- to end at its forecast: what is still to come is the forecast less what is billed so far (never negative)
        case
            when e.share_to_come = 1 and e.history_days > 0
                then round(coalesce(e.day_mean, 0), 6)::decimal(18,6)
            when e.share_to_come > 0 and e.history_days > 0
                then greatest(round(coalesce(e.day_mean, 0), 6)::decimal(18,6) - e.amount, 0)
        end as expected_amount,
        e.share_to_come,
        e.history_days,
        c.origins as backtest_origins,
        -- without enough back-test origins the range is wide on purpose: ±50 % of what is to come
        case when c.origins >= 8 then -least(c.range_error, 1) else -0.5 end as range_low_ratio,
        case when c.origins >= 8 then c.range_error else 0.5 end as range_high_ratio,
        c.median_error as backtest_median_error,
    from expected as e
    left join calibration as c using (account, family)
)

select * from final;
