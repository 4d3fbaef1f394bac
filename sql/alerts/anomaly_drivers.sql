-- One row per resource of one series ($account, $dimension, $series_id) on one day ($day): its spend that day
-- beside its average day over the $baseline_days days before, and the excess – the resources that drove an anomaly,
-- biggest excess first (at most 5).
with base as (
    select *
    from rpt_spend_by_resource_daily
    where account = $account
        and day >= $day::date - $baseline_days::integer and day <= $day::date
        and case $dimension
            when 'family' then family
            when 'template' then template_id
            when 'endpoint' then endpoint_id
            when 'gpu_type' then gpu_type_id
        end = $series_id
),

per_resource as (
    select
        family,
        resource_id,
        max(resource_name) as resource_name,
        coalesce(sum(amount) filter (where day = $day::date), 0) as amount,
        coalesce(sum(amount) filter (where day < $day::date), 0) / $baseline_days::integer as baseline_average,
    from base
    group by all
)

select
    family,
    resource_id,
    resource_name,
    amount,
    round(baseline_average, 2)::decimal(18,2) as baseline_average,
    round(amount - baseline_average, 2)::decimal(18,2) as excess,
from per_resource
where amount > baseline_average
order by excess desc, resource_id
limit 5;
