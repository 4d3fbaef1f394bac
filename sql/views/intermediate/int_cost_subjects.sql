-- One row per cost subject: a distinct combination of what allocation rules can match in cost_daily – account,
-- family, component, resource, template, endpoint, GPU type and data center, ids and names as of the cost's day –
-- under its one key, subject_id (computed once, in int_cost_attributed_in).
create or replace view int_cost_subjects as
with costs as (
    select * from cost_daily
),

final as (
    select
        subject_id,
        any_value(account) as account,
        any_value(family) as family,
        any_value(component) as component,
        any_value(resource_id) as resource_id,
        any_value(resource_name) as resource_name,
        any_value(template_id) as template_id,
        any_value(template_name) as template_name,
        any_value(endpoint_id) as endpoint_id,
        any_value(endpoint_name) as endpoint_name,
        any_value(gpu_type_id) as gpu_type_id,
        any_value(gpu_type_name) as gpu_type_name,
        any_value(data_center_id) as data_center_id,
    from costs
    group by subject_id
)

select * from final;
