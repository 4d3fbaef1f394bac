-- One row per cost_daily row and allocation category: the value the rules give the row before any split (rule is the 1-based index of the rule that matched, null for the default).
create or replace view int_allocation_direct as
with costs as (
    select * from cost_daily
),

matches as (
    select * from int_allocation_matches
),

final as (
    select
        c.account,
        m.category,
        m.value,
        m.rule,
        c.day,
        c.family,
        c.component,
        c.resource_id,
        c.resource_name,
        c.template_name,
        c.endpoint_name,
        c.gpu_type_name,
        c.amount::decimal(38,6) as amount,
    from costs as c
    inner join matches as m
        on m.account = c.account
        and m.family = c.family
        and m.component = c.component
        and m.resource_id is not distinct from c.resource_id
        and m.resource_name is not distinct from c.resource_name
        and m.template_id is not distinct from c.template_id
        and m.template_name is not distinct from c.template_name
        and m.endpoint_id is not distinct from c.endpoint_id
        and m.endpoint_name is not distinct from c.endpoint_name
        and m.gpu_type_id is not distinct from c.gpu_type_id
        and m.gpu_type_name is not distinct from c.gpu_type_name
        and m.data_center_id is not distinct from c.data_center_id
)

select * from final;
