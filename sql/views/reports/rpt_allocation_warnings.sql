-- One row per allocation category, split, account and UTC day on which a proportional split could not apply because
-- none of its targets had direct cost that day: the amount that stayed with the split's source value (a
-- data-quality warning).
create or replace view rpt_allocation_warnings as
with warnings as (
    select * from allocation_split_warnings
),

final as (
    select * from warnings
)

select * from final;
