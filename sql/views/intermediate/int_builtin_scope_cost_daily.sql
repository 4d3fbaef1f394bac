-- One row per account, UTC day and built-in scope with cost that day: the scope's billed cost, all components. The
-- scopes a metric can divide without allocation: '' (the account), family:<family>, and endpoint:, template: and
-- gpuType: by id and by name as of the day – a Serverless row's resource is its endpoint, also without inventory. A
-- cost row counts once under each distinct scope it is in. What fct_scope_cost_daily (read by int_scope_cost_daily)
-- is materialised from.
create or replace view int_builtin_scope_cost_daily as
with costs as (
    select * from fct_cost_daily
),

-- rows summed per combination of the scope keys first (few per day), then spread over their scopes
keyed as (
    select
        account,
        day,
        family,
        endpoint_id,
        endpoint_name,
        case when family = 'serverless' then resource_id end as serverless_id,
        template_id,
        template_name,
        gpu_type_id,
        gpu_type_name,
        sum(amount) as amount,
    from costs
    group by all
),

scoped as (
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
),

final as (
    select
        account,
        day,
        scope,
        sum(amount)::decimal(38,6) as cost,
    from scoped
    group by account, day, scope
)

select * from final;
