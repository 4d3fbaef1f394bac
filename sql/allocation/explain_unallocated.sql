-- The largest resources whose cost no rule matched (it got the category's default value), over all history: one row
-- per category, account, family and resource, largest first. $1: a category or null for all; $2: how many rows.
with direct as (
    select * from int_allocation_direct
),

final as (
    select
        d.category,
        d.account,
        d.family,
        d.resource_id,
        arg_max(d.resource_name, d.day) as resource_name,
        d.value,
        sum(d.amount) as amount,
    from direct as d
    where d.rule is null
        and ($1::varchar is null or d.category = $1::varchar)
    group by d.category, d.account, d.family, d.resource_id, d.value
)

select * from final
order by amount desc, category, account, family, resource_id
limit $2
