-- One row per finding of money spent for nothing, as of report_clock (the work – cost of the last 30 days against
-- the inventory as it stood then – is in this mart; rpt_waste shows it): a Serverless endpoint whose cost is almost
-- all its always-on workers.min baseline (idle_min_workers), a pod EXITED for 14+ days still paying for its volume
-- (stopped_pod_volume), a network volume no pod or endpoint mounted in the last 7 days (unattached_volume), a
-- running SECURE GPU pod at list price whose GPU is at least 20 % cheaper on COMMUNITY (cheaper_cloud).
-- monthly_cost is what the finding costs a month (for cheaper_cloud: what moving would save); finding_id is stable
-- across runs.
create or replace view int_waste_findings as
with clock as (
    select * from int_report_clock
),

-- the 30 complete days before as_of_date, per resource, day and component (cost_daily's own grain, one row each):
-- the only cost this view reads
recent as materialized (
    select
        c.account,
        c.family,
        c.resource_id,
        c.day,
        c.component,
        c.amount,
    from fct_cost_daily as c, clock
    where c.day >= clock.as_of_date - 30 and c.day < clock.as_of_date
),

per_resource_day as (
    select
        account,
        family,
        resource_id,
        day,
        sum(amount) as amount,
        coalesce(sum(amount) filter (where component in ('gpu', 'cpu')), 0) as compute_amount,
        coalesce(sum(amount) filter (where component = 'disk'), 0) as disk_amount,
    from recent
    group by all
),

last_30_days as (
    select account, family, resource_id, sum(amount) as amount,
    from per_resource_day
    group by all
),

pods as (
    select * from stg_pods
),

endpoints as (
    select * from stg_endpoints
),

graphql_endpoints as (
    select * from stg_graphql_endpoints
),

volumes as (
    select * from stg_network_volumes
),

-- inventory as it stood at as_of (int_versions_at_in: one version per object)
pods_at as (
    select * from int_versions_at_in(pods, pod_id)
),

endpoints_at as (
    select * from int_versions_at_in(endpoints, endpoint_id)
),

graphql_endpoints_at as (
    select * from int_versions_at_in(graphql_endpoints, endpoint_id)
),

volumes_at as (
    select * from int_versions_at_in(volumes, network_volume_id)
),

gpu_types as (
    select * from int_gpu_types
),

names as (
    select account, family, resource_id, resource_name,
    from int_resource_timeline, clock
    where valid_from <= clock.as_of and clock.as_of < valid_to
),

-- (a) idle_min_workers: workers.min > 0, and over at least 7 complete billed days of the last 14 the cost above the
-- cheapest day (the always-on baseline) is at most 5 % of the total – there is next to no traffic
endpoint_days as (
    select d.*
    from per_resource_day as d, clock
    where d.family = 'serverless' and d.day >= clock.as_of_date - 14 and d.amount > 0
),

endpoint_baselines as (
    select
        account,
        resource_id,
        count(*) as days,
        min(amount) as baseline_daily,
        sum(amount) as total,
        sum(amount) - count(*) * min(amount) as above_baseline,
    from endpoint_days
    group by all
),

idle_min_workers as (
    select
        b.account,
        'idle_min_workers' as kind,
        'serverless' as family,
        b.resource_id,
        b.baseline_daily * 365 / 12 as monthly_cost,
        'Serverless endpoint ''' || coalesce(e.endpoint_name, g.endpoint_name, b.resource_id) || ''' keeps '
            || coalesce(e.workers_min, g.workers_min) || ' worker(s) running around the clock (workers.min), about $'
            || round(b.baseline_daily, 2) || ' a day, and traffic above that baseline was '
            || round(100 * b.above_baseline / b.total, 1) || ' % of its cost over the last ' || b.days
            || ' days; set workers.min to 0 unless cold starts are unacceptable.' as reason,
    from endpoint_baselines as b
    left join endpoints_at as e on e.account = b.account and e.endpoint_id = b.resource_id
    left join graphql_endpoints_at as g on g.account = b.account and g.endpoint_id = b.resource_id
    where coalesce(e.workers_min, g.workers_min) > 0
        and b.days >= 7
        and b.above_baseline <= 0.05 * b.total
),

-- (b) stopped_pod_volume: EXITED at as_of, no compute billed in the last 14 complete days, volume billed yesterday
pod_recent as (
    select
        d.account,
        d.resource_id,
        coalesce(sum(d.compute_amount) filter (where d.day >= clock.as_of_date - 14), 0) as compute_14_days,
        coalesce(sum(d.disk_amount) filter (where d.day = clock.as_of_date - 1), 0) as disk_yesterday,
    from per_resource_day as d, clock
    where d.family = 'pod'
    group by all
),

stopped_pod_volume as (
    select
        p.account,
        'stopped_pod_volume' as kind,
        'pod' as family,
        p.pod_id as resource_id,
        r.disk_yesterday * 365 / 12 as monthly_cost,
        'Pod ''' || p.pod_name || ''' has been EXITED for at least 14 days but still pays for its '
            || coalesce(p.volume_gb || ' GB ', '') || 'volume, about $' || round(r.disk_yesterday * 365 / 12, 2)
            || ' a month; terminate it (after copying what is needed to a network volume) or start using it again.'
            as reason,
    from pods_at as p
    join pod_recent as r on r.account = p.account and r.resource_id = p.pod_id
    where p.status = 'EXITED' and r.compute_14_days = 0 and r.disk_yesterday > 0
),

-- (c) unattached_volume: billed yesterday, mounted by no pod and no endpoint version of the last 7 days
mounts as (
    select p.account, unnest(p.network_volume_ids) as network_volume_id
    from pods as p, clock
    where p.valid_to > clock.as_of - interval 7 day and p.valid_from <= clock.as_of
    union all
    select e.account, unnest(e.network_volume_ids)
    from endpoints as e, clock
    where e.valid_to > clock.as_of - interval 7 day and e.valid_from <= clock.as_of
    union all
    select g.account, g.network_volume_id
    from graphql_endpoints as g, clock
    where g.network_volume_id is not null and g.valid_to > clock.as_of - interval 7 day and g.valid_from <= clock.as_of
),

volume_yesterday as (
    select d.account, d.resource_id, d.amount,
    from per_resource_day as d, clock
    where d.family = 'storage' and d.day = clock.as_of_date - 1 and d.amount > 0
),

unattached_volume as (
    select
        v.account,
        'unattached_volume' as kind,
        'storage' as family,
        v.network_volume_id as resource_id,
        y.amount * 365 / 12 as monthly_cost,
        'Network volume ''' || v.network_volume_name || ''' (' || coalesce(v.size_gb || ' GB', 'size unknown')
            || coalesce(' in ' || v.data_center_id, '') || ') is attached to no pod and no endpoint and costs about $'
            || round(y.amount * 365 / 12, 2) || ' a month; delete it or move what it holds to cheaper storage.' as reason,
    from volumes_at as v
    join volume_yesterday as y on y.account = v.account and y.resource_id = v.network_volume_id
    anti join mounts as m on m.account = v.account and m.network_volume_id = v.network_volume_id
),

-- (d) cheaper_cloud: RUNNING on SECURE at the catalog's list price, the GPU offered on COMMUNITY for at least 20 %
-- less (and in that count), and running all of yesterday
pod_yesterday as (
    select d.account, d.resource_id, d.compute_amount,
    from per_resource_day as d, clock
    where d.family = 'pod' and d.day = clock.as_of_date - 1
),

cheaper_cloud as (
    select
        p.account,
        'cheaper_cloud' as kind,
        'pod' as family,
        p.pod_id as resource_id,
        (g.price_secure - g.price_community) * p.gpu_count * 730 as monthly_cost,
        'Pod ''' || p.pod_name || ''' runs ' || p.gpu_count || ' × ' || coalesce(g.gpu_type_name, p.gpu_type_id)
            || ' on SECURE at the list price of $' || round(g.price_secure, 2) || '/GPU-hour; COMMUNITY lists the same GPU at $'
            || round(g.price_community, 2) || ', which would save about $'
            || round((g.price_secure - g.price_community) * p.gpu_count * 730, 2)
            || ' a month if the workload tolerates community hosts.' as reason,
    from pods_at as p
    join gpu_types as g on g.account = p.account and g.gpu_type_id = p.gpu_type_id
    join pod_yesterday as y on y.account = p.account and y.resource_id = p.pod_id
    where p.status = 'RUNNING'
        and p.cloud = 'SECURE'
        and p.gpu_count > 0
        and g.available_community
        and g.price_community is not null
        and coalesce(g.max_count_community, p.gpu_count) >= p.gpu_count
        and g.price_community <= 0.8 * g.price_secure
        and p.cost_per_hour >= p.gpu_count * g.price_secure
        -- billed for compute all of yesterday at (at least) the list price
        and y.compute_amount >= 0.99 * p.gpu_count * g.price_secure * 24
),

findings as (
    select * from idle_min_workers
    union all
    select * from stopped_pod_volume
    union all
    select * from unattached_volume
    union all
    select * from cheaper_cloud
),

final as (
    select
        f.account,
        f.kind || ':' || f.account || ':' || f.resource_id as finding_id,
        f.kind,
        f.family,
        f.resource_id,
        n.resource_name,
        round(f.monthly_cost, 2)::decimal(18,2) as monthly_cost,
        coalesce(l.amount, 0)::decimal(38,6) as last_30_days_amount,
        f.reason,
    from findings as f
    left join names as n on n.account = f.account and n.family = f.family and n.resource_id = f.resource_id
    left join last_30_days as l on l.account = f.account and l.family = f.family and l.resource_id = f.resource_id
)

select * from final;
