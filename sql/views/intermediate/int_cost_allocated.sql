-- One row per cost_daily row, allocation category and value after splits, computed from the rules in
-- _meta_allocation_*: the rule that matched (1-based index, null for the category's default), the value a split
-- moved the amount from (split_from, null for direct cost), the split that moved it or kept it (split, is_kept: a
-- proportional split with no basis that day), the cost row's subject and the amount in exact micro-dollars. What
-- fct_cost_allocated (cost_allocated) is materialised from, and what a reader whose config has other rules computes
-- instead.
create or replace view int_cost_allocated as
with direct as (
    select * from int_allocation_direct
),

splits as (
    select * from stg_allocation_splits
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
        account, category, value, rule, null::varchar as split_from, null::integer as split, false as is_kept, day,
        family, component, resource_id, resource_name, template_name, endpoint_name, gpu_type_name, subject_id, amount,
    from unsplit
    union all
    select
        account, category, value, rule, split_from, split, is_kept, day,
        family, component, resource_id, resource_name, template_name, endpoint_name, gpu_type_name, subject_id, amount,
    from moved
),

final as (
    select
        account,
        category,
        value,
        rule,
        split_from,
        split,
        is_kept,
        day,
        family,
        component,
        resource_id,
        resource_name,
        template_name,
        endpoint_name,
        gpu_type_name,
        subject_id,
        amount,
    from combined
)

select * from final;
