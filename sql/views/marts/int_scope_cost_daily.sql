-- One row per account, UTC day and scope used by a metric (metrics_daily): the scope's billed cost that day, all components. '' is the account; family:, endpoint:, template: and gpuType: match cost_daily (an endpoint, template or GPU type by id or by its name as of the day); any other kind is an allocation category, read from cost_allocated after splits. Null when the account has no cost at all that day (not synced yet), 0 when it has cost but none in the scope.
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

covered_days as (
    select distinct account, day from costs
),

built_in as (
    select s.account, s.day, s.scope, sum(c.amount) as cost,
    from scopes as s
    join costs as c
        on c.account = s.account
        and c.day = s.day
    where s.kind in ('', 'family', 'endpoint', 'template', 'gpuType')
        and case s.kind
            when '' then true
            when 'family' then c.family = s.value
            -- by id also without inventory: a Serverless cost row's resource is its endpoint
            when 'endpoint' then s.value in (c.endpoint_id, c.endpoint_name) or (c.family = 'serverless' and c.resource_id = s.value)
            when 'template' then s.value in (c.template_id, c.template_name)
            when 'gpuType' then s.value in (c.gpu_type_id, c.gpu_type_name)
        end
    group by all
),

by_category as (
    select s.account, s.day, s.scope, sum(a.amount) as cost,
    from scopes as s
    join allocated as a
        on a.account = s.account
        and a.day = s.day
        and a.category = s.kind
        and a.value = s.value
    where s.kind not in ('', 'family', 'endpoint', 'template', 'gpuType')
    group by all
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
