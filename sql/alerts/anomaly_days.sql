-- One row per account, series (a family, template, endpoint or GPU type) and complete day of the last $window_days
-- days before report_clock whose spend departs upward from what the series' habits lead one to expect, with the kind
-- of departure and what it was compared with:
--   departure – a series that usually spends on days like this one (weekday or weekend when $weekday_aware): the day
--       against the median and MAD of the $baseline_days before it (the days before the day's episode only, when the
--       episode began inside them, so a job left on is not its own baseline), robust score = (amount − median) /
--       max(1.4826 × MAD, 10 % of the median, 1 cent), at least $threshold, and the excess more than 1.25 × the
--       series' usual rise (its 90th percentile over $history_days above its median there), and not a rise the series
--       has made on $recurring_episodes or more separate occasions in $history_days before the last 7 days (its habit);
--   size – a recurring series (usually idle, but with $recurring_episodes or more episodes – runs of consecutive days
--       with spend – in the $history_days before this episode): the day at least $episode_ratio × its typical active
--       day (the median of its past episodes' days);
--   long – a recurring series whose episode so far has cost $episode_ratio × a typical past episode, or has run past
--       its longest past episode and 2 days past its typical length (a job that does not stop): the whole day is
--       spend a usual job would not have had;
--   new – a usually idle series with fewer past episodes: spend where there was almost none.
-- Every row also exceeds what was expected by at least $min_cost and $min_share_pct % of the account's typical day
-- (account_typical: the median of its daily spend over the $baseline_days before), and has at least 5 like days of
-- synced billing before it (rpt_spend_by_series_daily's first_covered_day; before it nothing is known, so a young
-- database has short baselines and no alert – anomaly_coverage.sql names those days).
with clock as (
    select * from report_clock
),

bounds as (
    select
        as_of_date - $window_days::integer as first_day,
        as_of_date - 1 as last_day,
        as_of_date - $window_days::integer - greatest($baseline_days::integer, $history_days::integer) as history_start,
    from clock
),

series_days as (
    select sd.*
    from rpt_spend_by_series_daily as sd, bounds as b
    where sd.day >= b.history_start and sd.day <= b.last_day
),

series as (
    select account, dimension, series_id, max(series_name) as series_name, any_value(first_covered_day) as first_covered_day,
    from series_days
    group by all
),

days as (
    select unnest(generate_series(b.history_start, b.last_day, interval 1 day))::date as day,
    from bounds as b
),

-- every series on every day the account's billing was synced for, 0 where it spent nothing; a day before the first
-- synced day is not a day of $0 but a day nobody knows, so it is no part of any baseline
grid as (
    select s.account, s.dimension, s.series_id, s.series_name, s.first_covered_day, d.day, coalesce(sd.amount, 0) as amount,
    from series as s
    cross join days as d
    left join series_days as sd
        on sd.account = s.account and sd.dimension = s.dimension and sd.series_id = s.series_id and sd.day = d.day
    where s.first_covered_day is not null and d.day >= s.first_covered_day
),

-- the account's spend per day (its families together), for the impact of an excess
account_days as (
    select account, day, sum(amount) as amount,
    from grid
    where dimension = 'family'
    group by all
),

-- episodes: runs of consecutive days with spend (the day minus its rank is the same within a run)
active as (
    select
        account, dimension, series_id, day, amount,
        day - (row_number() over (partition by account, dimension, series_id order by day))::integer as run_key,
    from grid
    where amount > 0
),

episode_days as (
    select
        a.*,
        min(day) over (partition by account, dimension, series_id, run_key) as episode_start,
        max(day) over (partition by account, dimension, series_id, run_key) as episode_end,
        row_number() over (partition by account, dimension, series_id, run_key order by day) as day_of_episode,
        sum(amount) over (partition by account, dimension, series_id, run_key order by day) as episode_so_far,
    from active as a
),

episodes as (
    select account, dimension, series_id, episode_start, any_value(episode_end) as episode_end, count(*) as length, sum(amount) as total,
    from episode_days
    group by all
),

-- the days scored: days with spend in the window; an episode that began before the first synced day began
-- nobody knows when, so it is no episode of the window's making
evaluated as (
    select
        e.account, e.dimension, e.series_id, g.series_name, g.first_covered_day, e.day, e.amount,
        e.episode_start, e.day_of_episode, e.episode_so_far,
        e.episode_start > g.first_covered_day and e.episode_start > e.day - $baseline_days::integer as episode_in_baseline,
    from episode_days as e
    join grid as g using (account, dimension, series_id, day)
    cross join bounds as b
    where e.day >= b.first_day
),

baseline as (
    select e.account, e.dimension, e.series_id, e.day, b.day as baseline_day, b.amount,
        not e.episode_in_baseline or b.day < e.episode_start as before_episode,
    from evaluated as e
    join grid as b
        on b.account = e.account and b.dimension = e.dimension and b.series_id = e.series_id
        and b.day >= e.day - $baseline_days::integer and b.day < e.day
        and (not $weekday_aware::boolean or (isodow(b.day) >= 6) = (isodow(e.day) >= 6))
),

medians as (
    select
        account, dimension, series_id, day,
        coalesce(median(amount::double) filter (where before_episode), 0) as median,
        count(*) as baseline_days,
    from baseline
    group by all
),

mads as (
    select b.account, b.dimension, b.series_id, b.day, coalesce(median(abs(b.amount::double - m.median)) filter (where b.before_episode), 0) as mad,
    from baseline as b
    join medians as m using (account, dimension, series_id, day)
    group by all
),

-- the series' past episodes: over before this day's episode began, within $history_days
past_episodes as (
    select
        e.account, e.dimension, e.series_id, e.day,
        count(*) as episodes,
        min(p.episode_start) as first_episode_start,
        median(p.total::double) as typical_total,
        median(p.length) as typical_length,
        max(p.length) as longest,
    from evaluated as e
    join episodes as p
        on p.account = e.account and p.dimension = e.dimension and p.series_id = e.series_id
        and p.episode_end < e.episode_start and p.episode_end >= e.day - $history_days::integer
    group by all
),

past_totals as (
    select e.account, e.dimension, e.series_id, e.day, median(abs(p.total::double - pe.typical_total)) as total_mad,
    from evaluated as e
    join past_episodes as pe using (account, dimension, series_id, day)
    join episodes as p
        on p.account = e.account and p.dimension = e.dimension and p.series_id = e.series_id
        and p.episode_end < e.episode_start and p.episode_end >= e.day - $history_days::integer
    group by all
),

past_active_days as (
    select e.account, e.dimension, e.series_id, e.day, a.amount,
    from evaluated as e
    join active as a
        on a.account = e.account and a.dimension = e.dimension and a.series_id = e.series_id
        and a.day < e.episode_start and a.day >= e.day - $history_days::integer
),

typical_days as (
    select account, dimension, series_id, day, median(amount::double) as typical_day,
    from past_active_days
    group by all
),

typical_day_mads as (
    select p.account, p.dimension, p.series_id, p.day, median(abs(p.amount::double - t.typical_day)) as day_mad,
    from past_active_days as p
    join typical_days as t using (account, dimension, series_id, day)
    group by all
),

-- a series' upper range over $history_days (its 90th percentile above its median): a series whose days rise this far
-- now and then – a fleet GPU type that a training job joins every week – does not page when one more such day comes
history_range as (
    select
        e.account, e.dimension, e.series_id, e.day,
        quantile_cont(h.amount::double, 0.9) - median(h.amount::double) as usual_rise,
    from evaluated as e
    join grid as h
        on h.account = e.account and h.dimension = e.dimension and h.series_id = e.series_id
        and h.day >= e.day - $history_days::integer and h.day < e.day
    group by all
),

-- how often the series has risen this far before: runs of days (before the last 7, so a departure in progress is not
-- its own habit) at least 80 % as far above today's median as this day is – a template whose training job lifts it
-- every other week has risen like this before, a scale-up by mistake has not
past_rises as (
    select
        e.account, e.dimension, e.series_id, e.day,
        count(*) filter (
            where h.amount::double - m.median >= 0.8 * (e.amount::double - m.median)
                and coalesce(h.previous_amount::double - m.median < 0.8 * (e.amount::double - m.median), true)
        ) as past_rises,
    from evaluated as e
    join medians as m using (account, dimension, series_id, day)
    join (
        select *, lag(amount) over (partition by account, dimension, series_id order by day) as previous_amount,
        from grid
    ) as h
        on h.account = e.account and h.dimension = e.dimension and h.series_id = e.series_id
        and h.day >= e.day - $history_days::integer and h.day < e.day - 7
    where m.median > 0 and e.amount::double > m.median
    group by all
),

account_typical as (
    select e.account, e.day, median(a.amount::double) as account_typical,
    from (select distinct account, day from evaluated) as e
    join account_days as a
        on a.account = e.account and a.day >= e.day - $baseline_days::integer and a.day < e.day
    group by all
),

habits as (
    select
        e.*,
        m.median,
        d.mad,
        m.baseline_days,
        coalesce(pe.episodes, 0) as past_episodes,
        pe.first_episode_start,
        pe.typical_total,
        pt.total_mad,
        pe.typical_length,
        pe.longest,
        t.typical_day,
        tm.day_mad,
        coalesce(acct.account_typical, 0) as account_typical,
        coalesce(hr.usual_rise, 0) as usual_rise,
        coalesce(pr.past_rises, 0) as past_rises,
    from evaluated as e
    join medians as m using (account, dimension, series_id, day)
    join mads as d using (account, dimension, series_id, day)
    left join past_episodes as pe using (account, dimension, series_id, day)
    left join past_totals as pt using (account, dimension, series_id, day)
    left join typical_days as t using (account, dimension, series_id, day)
    left join typical_day_mads as tm using (account, dimension, series_id, day)
    left join account_typical as acct using (account, day)
    left join history_range as hr using (account, dimension, series_id, day)
    left join past_rises as pr using (account, dimension, series_id, day)
),

judged as (
    select
        *,
        median = 0 and past_episodes >= $recurring_episodes::integer as recurring,
        (amount::double - typical_day) / greatest(1.4826 * day_mad, 0.1 * typical_day, 0.01) as size_score,
        (episode_so_far::double - typical_total) / greatest(1.4826 * total_mad, 0.1 * typical_total, 0.01) as episode_score,
    from habits
),

kinds as (
    select
        *,
        case
            -- no further above its median than its usual rises, and a quarter: a habit, not a departure
            when median > 0 and amount::double - median <= 1.25 * usual_rise then null
            -- risen as far on $recurring_episodes or more separate occasions before: its habit, not a departure
            when median > 0 and past_rises >= $recurring_episodes::integer then null
            when median > 0 then 'departure'
            when not recurring then 'new'
            -- the ratio alone: routine jobs' days vary with the hours they run (a partial first and last day), and
            -- none is 3× the median of them
            when amount::double >= $episode_ratio::double * typical_day then 'size'
            when episode_so_far::double >= $episode_ratio::double * typical_total
                or (day_of_episode > longest and day_of_episode >= typical_length + 2) then 'long'
        end as kind,
    from judged
),

scored as (
    select
        *,
        case kind when 'departure' then median when 'size' then typical_day else 0 end as expected,
        case kind
            when 'size' then size_score
            -- a job that goes on: how far its episode so far is above a typical one (at least 0: it is long, not big)
            when 'long' then greatest(episode_score, 0)
            else (amount::double - median) / greatest(1.4826 * mad, 0.1 * median, 0.01)
        end as score,
    from kinds
    where kind is not null
),

final as (
    select
        account,
        dimension,
        series_id,
        series_name,
        day,
        amount,
        kind,
        round(expected, 2)::decimal(18,2) as expected,
        round(amount - expected::decimal(18,2), 2)::decimal(18,2) as excess,
        score,
        case when expected > 0 then round(amount / expected::decimal(18,2), 1) end as ratio,
        round(median, 2)::decimal(18,2) as baseline_median,
        round(mad, 2)::decimal(18,2) as baseline_mad,
        baseline_days::integer as baseline_days,
        first_covered_day,
        episode_start,
        day_of_episode::integer as episode_days,
        episode_so_far::decimal(18,2) as episode_total,
        past_episodes::integer as past_episodes,
        first_episode_start,
        round(typical_day, 2)::decimal(18,2) as typical_day,
        round(typical_total, 2)::decimal(18,2) as typical_total,
        typical_length::double as typical_length,
        longest::integer as longest_episode,
        round(account_typical, 2)::decimal(18,2) as account_typical,
    from scored
    where baseline_days >= 5
        and (kind in ('long', 'size') or score >= $threshold::double)
        and amount - expected::decimal(18,2) >= greatest($min_cost::decimal(18,2), $min_share_pct::double / 100 * account_typical)::decimal(18,2)
)

select * from final
order by account, dimension, series_id, day;
