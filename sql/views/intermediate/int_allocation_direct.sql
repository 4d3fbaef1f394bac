-- One row per cost_daily row and allocation category: the value the rules give the row before any split (rule is
-- the 1-based index of the rule that matched, null for the default) and what the rule matched on (null for the
-- default); subject_id is the cost row's subject (int_cost_subjects).
create or replace view int_allocation_direct as
with costs as (
    select * from fct_cost_daily
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
        m.matched_on,
        c.day,
        c.family,
        c.component,
        c.resource_id,
        c.resource_name,
        c.template_name,
        c.endpoint_name,
        c.gpu_type_name,
        c.subject_id,
        c.amount::decimal(38,6) as amount,
    from costs as c
    inner join matches as m
        on m.subject_id = c.subject_id
)

select * from final;
