-- One row per allocation category, account, family and resource (id and name as billed) with the value the rules gave its cost before splits, the rule (1-based index, null for the default) and the keys and values that matched, with the resource's total cost over all history. $1: a category or null for all; $2: a resource id or name, or null for all.
with costs as (
    select * from cost_daily
),

matches as (
    select * from int_allocation_matches
),

joined as (
    select
        m.category,
        c.account,
        c.family,
        c.resource_id,
        c.resource_name,
        m.value,
        m.rule,
        m.matched_on,
        c.amount,
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
    where ($1::varchar is null or m.category = $1::varchar)
        and ($2::varchar is null or c.resource_id = $2::varchar or c.resource_name = $2::varchar)
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
