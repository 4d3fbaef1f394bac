-- One row per allocation category, account, family and resource (id and name as billed) with the value the rules
-- gave its cost before splits, the rule (1-based index, null for the default) and the keys and values that matched,
-- with the resource's total cost over all history. $1: a category or null for all; $2: a resource id or name, or
-- null for all.
with direct as (
    select * from int_allocation_direct
),

joined as (
    select * from direct
    where ($1::varchar is null or category = $1::varchar)
        and ($2::varchar is null or resource_id = $2::varchar or resource_name = $2::varchar)
),

final as (
    select
        category,
        account,
        family,
        resource_id,
        resource_name,
        value,
        rule,
        coalesce(matched_on, 'no rule matched: the default') as matched_on,
        sum(amount) as amount,
    from joined
    group by all
)

select * from final
order by category, account, family, resource_id nulls first, resource_name nulls first, rule nulls last
