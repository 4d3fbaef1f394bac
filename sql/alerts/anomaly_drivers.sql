-- One row per resource of one series ($account, $dimension, $series_id) over its anomalous days ($days, comma-separated
-- YYYY-MM-DD): its spend on those days beside as many of its average days over the $baseline_days before the first of
-- them, and the excess – the resources that drove an anomaly, biggest excess first (at most 5). Summed over every
-- anomalous day, not read off one: the resource that drove a level shift stays the biggest driver while the shift's
-- days move through the window, so the incident keeps its key (anomaly-incident.ts). in_narrower_series: the
-- resource also belongs to a template, endpoint or GPU type series (a pod, an endpoint – not a volume), where its own
-- rise shows; template_id and gpu_type_id, the template and GPU type it ran on (a spread incident's home).
-- Of the whole series (the same on every row, over all its rising resources, not the five shown): fleet_like_share,
-- the share of the excess from fleet-like additions – resources first billed within the baseline, billed every day
-- since, costing at most twice a day what a pod of their family and template costs that the account had already run
-- every day for a week before –, fleet_like_batch, the most of them first billed on one day, fleet_addition_days, the
-- days they were first billed on, and the account's precedents: fleet_batches, the days in the $history_days before
-- the baseline on which pods it then ran every day for a week were first billed (not its first synced day: pods
-- billed from then started nobody knows when), and fleet_largest_batch, the most on one day. job_like_share: the share
-- of the excess from routine jobs (job_like, of one resource) – pods first billed within the baseline of a template
-- (or none) and GPU type on which the account ran $recurring_episodes or more pods before, each ended before this
-- one began within $history_days, none costing more a day than 1.5 × the dearest of them nor billed on more days
-- than the longest of them + 1, nor started
-- on one day with more like pods than the account ever started so at once: one more training job is no anomaly;
-- one on 4× the GPUs, one that does not stop or eight at once still are. rising_excess: the excess of every rising
-- resource of the series, per anomalous day.
with anomalous_days as (
    select unnest(string_split($days::varchar, ','))::date as day
),

bounds as (
    select min(day) as first_day, max(day) as last_day, count(*) as days,
    from anomalous_days
),

base as (
    select r.*
    from rpt_spend_by_resource_daily as r, bounds as b
    where r.account = $account
        and r.day >= b.first_day - $baseline_days::integer and r.day <= b.last_day
        and case $dimension
            when 'family' then r.family
            when 'template' then r.template_id
            when 'endpoint' then r.endpoint_id
            when 'gpu_type' then r.gpu_type_id
        end = $series_id
),

per_resource as (
    select
        r.family,
        r.resource_id,
        max(r.resource_name) as resource_name,
        bool_or(coalesce(r.template_id, r.endpoint_id, r.gpu_type_id) is not null) as in_narrower_series,
        any_value(r.template_id) as template_id,
        any_value(r.gpu_type_id) as gpu_type_id,
        coalesce(sum(r.amount) filter (where r.day in (select day from anomalous_days)), 0) as amount,
        coalesce(sum(r.amount) filter (where r.day < b.first_day), 0) / $baseline_days::integer as baseline_average,
        any_value(b.days) as days,
    from base as r, bounds as b
    group by all
),

rising as (
    select *, amount - days * baseline_average as excess,
    from per_resource
    where amount > days * baseline_average
),

-- every resource of the account with a template and a GPU type (a pod), up to the last anomalous day: its first day
-- billed, whether it billed every day since, and whether it billed on each of its first 7 days
pod_days as (
    select r.family, r.resource_id, r.template_id, r.gpu_type_id, r.day, r.amount,
    from rpt_spend_by_resource_daily as r, bounds as b
    where r.account = $account and r.day <= b.last_day and r.amount > 0
        and r.template_id is not null and r.gpu_type_id is not null
),

lives as (
    select
        family,
        resource_id,
        any_value(template_id) as template_id,
        any_value(gpu_type_id) as gpu_type_id,
        min(day) as first_day,
        max(day) as last_billed,
        count(distinct day) as days_billed,
        median(amount) as typical_day,
        max(amount) as peak_day,
    from pod_days
    group by all
),

first_weeks as (
    select l.first_day, count(distinct d.day) = 7 as week_on,
    from lives as l
    join pod_days as d using (family, resource_id)
    where d.day < l.first_day + 7
    group by l.family, l.resource_id, l.first_day
),

precedents as (
    select f.first_day, count(*) as pods,
    from first_weeks as f
    cross join bounds as b
    left join rpt_first_covered_days as c on c.account = $account
    where f.week_on
        and f.first_day >= b.first_day - $history_days::integer
        and f.first_day <= b.first_day - $baseline_days::integer
        and f.first_day > coalesce(c.first_covered_day, '0001-01-01'::date)
    group by all
),

-- a rising resource is a fleet-like addition when it is new to the baseline, has run every day since, and a pod like
-- it – its family and template (the workload; the GPU may differ), at least half its usual day – had run every day
-- for at least a week before it started and still ran then: a $500-a-day cluster is no fleet pod of $15
fleet_like as (
    select n.family, n.resource_id, n.first_day,
    from lives as n
    cross join bounds as b
    where n.first_day > b.first_day - $baseline_days::integer
        and n.last_billed = b.last_day
        and n.days_billed = n.last_billed - n.first_day + 1
        and exists (
            select 1
            from lives as o
            where o.family = n.family and o.template_id = n.template_id and o.resource_id <> n.resource_id
                and n.typical_day <= 2 * o.peak_day
                and o.first_day <= n.first_day - 7
                and o.last_billed >= n.first_day
                and o.days_billed = o.last_billed - o.first_day + 1
        )
),

-- every pod of the account with a GPU type, a template or none (a job of a custom image, like a month-close run)
job_lives as (
    select r.family, r.resource_id, any_value(r.template_id) as template_id, any_value(r.gpu_type_id) as gpu_type_id,
        min(r.day) as first_day, max(r.day) as last_billed, count(distinct r.day) as days_billed, max(r.amount) as peak_day,
    from rpt_spend_by_resource_daily as r, bounds as b
    where r.account = $account and r.day <= b.last_day and r.amount > 0 and r.gpu_type_id is not null
    group by all
),

-- a rising resource is a routine job when the account has run pods like it – its template (or none, too) and GPU
-- type, each ended before it began – often enough, and it is no dearer a day, no longer and no more at once
job_precedents as (
    select n.family, n.resource_id, n.first_day, n.peak_day, n.days_billed, n.template_id, n.gpu_type_id,
        count(o.resource_id) as jobs,
        max(o.peak_day) as dearest_day,
        max(o.days_billed) as longest,
    from job_lives as n
    cross join bounds as b
    join job_lives as o
        on o.template_id is not distinct from n.template_id and o.gpu_type_id = n.gpu_type_id and o.resource_id <> n.resource_id
        and o.last_billed < n.first_day and o.first_day >= n.first_day - $history_days::integer
    where n.first_day > b.first_day - $baseline_days::integer
    group by all
),

job_batches as (
    select j.resource_id,
        -- the like pods first billed on its first day, and the most like pods the account ever started on one day
        (select count(*) from job_lives as s
            where s.template_id is not distinct from j.template_id and s.gpu_type_id = j.gpu_type_id and s.first_day = j.first_day) as started_with,
        (select coalesce(max(n), 1) from (
            select count(*) as n from job_lives as o
            where o.template_id is not distinct from j.template_id and o.gpu_type_id = j.gpu_type_id and o.last_billed < j.first_day
                and o.first_day >= j.first_day - $history_days::integer
            group by o.first_day
        )) as largest_start,
    from job_precedents as j
),

job_like as (
    select j.family, j.resource_id,
    from job_precedents as j
    join job_batches as jb using (resource_id)
    where j.jobs >= $recurring_episodes::integer
        and j.peak_day <= 1.5 * j.dearest_day
        and j.days_billed <= j.longest + 1
        and jb.started_with <= jb.largest_start
),

series_growth as (
    select
        coalesce(sum(r.excess) filter (where f.resource_id is not null), 0) / sum(r.excess) as fleet_like_share,
        coalesce(sum(r.excess) filter (where j.resource_id is not null), 0) / sum(r.excess) as job_like_share,
        sum(r.excess) / any_value(r.days) as rising_excess,
        coalesce((
            select max(n) from (select count(*) as n from fleet_like as f2 join rising as r2 using (family, resource_id) group by f2.first_day)
        ), 0) as fleet_like_batch,
        (select count(distinct f3.first_day) from fleet_like as f3 join rising as r3 using (family, resource_id)) as fleet_addition_days,
        (select count(*) from precedents) as fleet_batches,
        (select coalesce(max(pods), 0) from precedents) as fleet_largest_batch,
    from rising as r
    left join fleet_like as f using (family, resource_id)
    left join job_like as j using (family, resource_id)
)

select
    r.family,
    r.resource_id,
    r.resource_name,
    r.in_narrower_series,
    r.template_id,
    r.gpu_type_id,
    r.amount,
    round(r.baseline_average, 2)::decimal(18,2) as baseline_average,
    round(r.excess, 2)::decimal(18,2) as excess,
    g.fleet_like_share::double as fleet_like_share,
    g.fleet_like_batch::integer as fleet_like_batch,
    g.fleet_addition_days::integer as fleet_addition_days,
    g.fleet_batches::integer as fleet_batches,
    g.fleet_largest_batch::integer as fleet_largest_batch,
    g.job_like_share::double as job_like_share,
    exists (select 1 from job_like as j where j.family = r.family and j.resource_id = r.resource_id) as job_like,
    round(g.rising_excess, 2)::decimal(18,2) as rising_excess,
from rising as r, series_growth as g
order by r.excess desc, r.resource_id
limit 5;
