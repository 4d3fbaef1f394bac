-- One row per account, UTC day and scope used by a metric (metrics_daily): the scope's billed cost that day, all
-- components. '' is the account; family:, endpoint:, template: and gpuType: match cost_daily (an endpoint, template
-- or GPU type by id or by its name as of the day); any other kind is an allocation category, read from
-- cost_allocated after splits. Null when the account has no cost at all that day (not synced yet), 0 when it has
-- cost but none in the scope.
create or replace view int_scope_cost_daily as
with scopes as (
    select distinct
        account,
        day,
        scope,
        case when scope = '' then '' else split_part(scope, ':', 1) end as kind,
        case when scope = '' then '' else substr(scope, strpos(scope, ':') + 1) end as value,
    from metrics_daily
),

costs as (
    select * from cost_daily
),

allocated as (
    select * from cost_allocated
),


-- a cost row counts once under each distinct scope it is in: the account (''), its family, its endpoint, template
-- and GPU type by id or by name as of the day – and a Serverless row's resource is its endpoint, also without
-- inventory. Rows are first summed per combination of those keys (few per day), then spread over their scopes.
keyed as (
    select
        c.account,
        c.day,
        c.family,
        c.endpoint_id,
        c.endpoint_name,
        case when c.family = 'serverless' then c.resource_id end as serverless_id,
        c.template_id,
        c.template_name,
        c.gpu_type_id,
        c.gpu_type_name,
        sum(c.amount) as amount,
    from costs as c
    -- only the account-days some metric divides
    semi join (select distinct account, day from scopes) as s
        on s.account = c.account and s.day = c.day
    group by all
),

built_in as (
    select account, day, scope, sum(amount) as cost,
    from (
        select
            account,
            day,
            amount,
            unnest(list_distinct([
                '',
                'family:' || family,
                'endpoint:' || endpoint_id,
                'endpoint:' || endpoint_name,
                'endpoint:' || serverless_id,
                'template:' || template_id,
                'template:' || template_name,
                'gpuType:' || gpu_type_id,
                'gpuType:' || gpu_type_name,
            ])) as scope,
        from keyed
    )
    group by all
),

-- any other kind is an allocation category, its value after splits
by_category as (
    select a.account, a.day, a.category || ':' || a.value as scope, sum(a.amount) as cost,
    from allocated as a
    -- only the categories some metric divides: the allocated rows of the others are not read
    semi join (select distinct kind from scopes) as k
        on k.kind = a.category
    where a.category not in ('', 'family', 'endpoint', 'template', 'gpuType')
    group by all
),

-- the account-days of the scopes that have any cost (keyed holds every cost row of those days)
covered_days as (
    select distinct account, day from keyed
),

matched as (
    select * from built_in
    union all
    select * from by_category
),

final as (
    select
        s.account,
        s.day,
        s.scope,
        case when d.day is not null then coalesce(m.cost, 0) end::decimal(38,6) as cost,
    from scopes as s
    left join matched as m
        on m.account = s.account and m.day = s.day and m.scope = s.scope
    left join covered_days as d
        on d.account = s.account and d.day = s.day
)

select * from final;
