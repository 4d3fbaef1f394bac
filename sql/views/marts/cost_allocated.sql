-- One row per cost_daily row, allocation category and value after splits: the rule that matched (1-based index, null for the category's default), the value a split moved the amount from (split_from, null for direct cost), and the amount in exact micro-dollars. A category's values add up to cost_daily's total exactly.
create or replace view cost_allocated as
with direct as (
    select * from int_allocation_direct
),

splits as (
    select * from _meta_allocation_splits
),

moved as (
    select * from int_allocation_splits
),

unsplit as (
    select d.*
    from direct as d
    anti join splits as s
        on s.category = d.category and s.from_value = d.value
),

combined as (
    select
        account, category, value, rule, null::varchar as split_from, day, family, component, resource_id,
        resource_name, template_name, endpoint_name, gpu_type_name, amount,
    from unsplit
    union all
    select
        account, category, value, rule, split_from, day, family, component, resource_id,
        resource_name, template_name, endpoint_name, gpu_type_name, amount,
    from moved
),

final as (
    select
        account,
        category,
        value,
        rule,
        split_from,
        day,
        family,
        component,
        resource_id,
        resource_name,
        template_name,
        endpoint_name,
        gpu_type_name,
        amount,
    from combined
)

select * from final;
