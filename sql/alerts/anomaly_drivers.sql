-- One row per resource of one series ($account, $dimension, $series_id) over its anomalous days ($days, comma-separated
-- YYYY-MM-DD): its spend on those days beside as many of its average days over the $baseline_days before the first of
-- them, and the excess – the resources that drove an anomaly, biggest excess first (at most 5). Summed over every
-- anomalous day, not read off one: the resource that drove a level shift stays the biggest driver while the shift's
-- days move through the window, so the incident keeps its key (anomaly-incident.ts).
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
        coalesce(sum(r.amount) filter (where r.day in (select day from anomalous_days)), 0) as amount,
        coalesce(sum(r.amount) filter (where r.day < b.first_day), 0) / $baseline_days::integer as baseline_average,
        any_value(b.days) as days,
    from base as r, bounds as b
    group by all
)

select
    family,
    resource_id,
    resource_name,
    amount,
    round(baseline_average, 2)::decimal(18,2) as baseline_average,
    round(amount - days * baseline_average, 2)::decimal(18,2) as excess,
from per_resource
where amount > days * baseline_average
order by excess desc, resource_id
limit 5;
