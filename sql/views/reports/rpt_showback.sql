-- One row per account, allocation category, value, UTC day, family, resource and where its amount came from
-- (split_from: the value a split moved it from, null for direct cost): the value's spend after rules and splits
-- (cost_allocated), with the resource's template and endpoint. is_unallocated: cost no rule matched (the category's
-- default value); suggested_rule: for such a row, an allocation rule that would catch the resource (fill in the
-- value). What `gpuledger report --report showback` reads: a value's rows add up to its rpt_by_category total.
create or replace view rpt_showback as
with allocated as (
    select * from cost_allocated
),

grouped as (
    select
        a.account,
        a.category,
        a.value,
        a.day,
        a.family,
        a.resource_id,
        a.resource_name,
        a.template_name,
        a.endpoint_name,
        a.split_from,
        -- no rule matched: the category's default value (cost_allocated: rule is null for it)
        a.rule is null and a.split_from is null as is_unallocated,
        sum(a.amount) as amount,
    from allocated as a
    group by all
),

final as (
    select
        account,
        category,
        value,
        day,
        family,
        resource_id,
        resource_name,
        template_name,
        endpoint_name,
        split_from,
        is_unallocated,
        -- the most specific key the rules match that names this resource (config/allocation.ts: endpoint, resource)
        case
            when is_unallocated then json_object(
                'value', '<' || category || '>',
                'match', case
                    when endpoint_name is not null then json_object('endpoint', endpoint_name)
                    else json_object('resource', coalesce(resource_name, resource_id))
                end
            )::varchar
        end as suggested_rule,
        amount,
    from grouped
)

select * from final;
