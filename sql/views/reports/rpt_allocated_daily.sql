-- One row per account, allocation category, value, family, resource and UTC day with cost: the value's spend that
-- day after rules and splits (cost_allocated). What a budget scoped to an allocation value reads (by resource, so its
-- forecast follows what is running, as the page's does).
create or replace view rpt_allocated_daily as
with allocated as (
    select * from cost_allocated
),

final as (
    select
        account,
        category,
        value,
        family,
        resource_id,
        day,
        sum(amount) as amount,
    from allocated
    group by all
)

select * from final;
