-- One row per allocation category, split, account and UTC day on which a proportional split could not apply because
-- none of its targets had direct cost that day: the amount that stayed with the split's source value (a
-- data-quality warning).
create or replace view allocation_split_warnings as
with moved as (
    select * from fct_cost_allocated
),

final as (
    select
        category,
        split,
        account,
        day,
        value as kept_value,
        sum(amount) as kept_amount,
        count(*) as cost_rows,
        'no target of the split had direct cost in the account that day; the cost stays with ' || value as warning,
    from moved
    where is_kept
    group by all
)

select * from final;
