-- One row per account, UTC day and scope used by a metric (int_metrics_daily): the scope's billed cost that day, all
-- components. '' is the account; family:, endpoint:, template: and gpuType: match cost_daily (an endpoint, template
-- or GPU type by id or by its name as of the day), read from fct_scope_cost_daily (int_builtin_scope_cost_daily);
-- any other kind is an allocation category, read from cost_allocated after splits. Null when the account has no
-- cost at all that day (not synced yet), 0 when it has cost but none in the scope.
create or replace view int_scope_cost_daily as
with scopes as (
    select distinct
        account,
        day,
        scope,
        case when scope = '' then '' else split_part(scope, ':', 1) end as kind,
        case when scope = '' then '' else substr(scope, strpos(scope, ':') + 1) end as value,
    from int_metrics_daily
),

-- the built-in scopes (the account, family, endpoint, template, GPU type), grouped once per publish
built_in as (
    select * from fct_scope_cost_daily
),

allocated as (
    -- cost_allocated's rows, as that mart publishes them
    select * exclude (split, is_kept, subject_id) from fct_cost_allocated
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

-- the account-days with any cost: each has its account scope ('') row
covered_days as (
    select account, day from built_in where scope = ''
),

matched as (
    select account, day, scope, cost from built_in
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
