-- One row per account, scope kind and value a metric's scope can name and find cost under: the Serverless
-- endpoints, templates and GPU types of the account's cost rows, each by id and by name – what int_scope_cost_daily
-- matches an endpoint:, template: or gpuType: scope against. A scope naming none of them would divide $0.
with costs as (
    select * from cost_daily
),

named as (
    select account, 'endpoint' as kind, endpoint_id as value, from costs
    union
    select account, 'endpoint', endpoint_name, from costs
    -- a Serverless row's resource is its endpoint, also without inventory
    union
    select account, 'endpoint', resource_id, from costs where family = 'serverless'
    union
    select account, 'template', template_id, from costs
    union
    select account, 'template', template_name, from costs
    union
    select account, 'gpuType', gpu_type_id, from costs
    union
    select account, 'gpuType', gpu_type_name, from costs
),

final as (
    select account, kind, value,
    from named
    where value is not null and value <> ''
)

select * from final
