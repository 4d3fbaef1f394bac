-- One row per cost subject (see int_allocation_rule_hits) and allocation category: the value the first matching rule gives it (rule is its 1-based index), or the category's default with rule null.
create or replace view int_allocation_matches as
with costs as (
    select * from cost_daily
),

categories as (
    select * from _meta_allocation_categories
),

hits as (
    select * from int_allocation_rule_hits
),

subjects as (
    select distinct
        account,
        family,
        component,
        resource_id,
        resource_name,
        template_id,
        template_name,
        endpoint_id,
        endpoint_name,
        gpu_type_id,
        gpu_type_name,
        data_center_id,
    from costs
),

first_hits as (
    select *
    from hits
    qualify row_number() over (
        partition by
            category, account, family, component, resource_id, resource_name, template_id, template_name,
            endpoint_id, endpoint_name, gpu_type_id, gpu_type_name, data_center_id
        order by rule
    ) = 1
),

final as (
    select
        s.*,
        c.category,
        coalesce(h.value, c.default_value) as value,
        h.rule,
        h.matched_on,
    from subjects as s
    cross join categories as c
    left join first_hits as h
        on h.category = c.category
        and h.account = s.account
        and h.family = s.family
        and h.component = s.component
        and h.resource_id is not distinct from s.resource_id
        and h.resource_name is not distinct from s.resource_name
        and h.template_id is not distinct from s.template_id
        and h.template_name is not distinct from s.template_name
        and h.endpoint_id is not distinct from s.endpoint_id
        and h.endpoint_name is not distinct from s.endpoint_name
        and h.gpu_type_id is not distinct from s.gpu_type_id
        and h.gpu_type_name is not distinct from s.gpu_type_name
        and h.data_center_id is not distinct from s.data_center_id
)

select * from final;
