-- One row per allocation category whose rules the database holds (_meta_allocation_*): its default value, how many
-- rules and splits it has, when a writing gpuledger command last wrote them (written_at) and a hash of the rules –
-- what cost_allocated was computed under. A gpuledger reader with other rules in its config answers with its own;
-- other DuckDB clients see these.
create or replace view dim_allocation_category as
with categories as (
    select * from int_allocation_categories
),

final as (
    select * from categories
)

select * from final;
