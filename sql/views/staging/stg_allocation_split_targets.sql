-- One row per target of an allocation split (_meta_allocation_split_targets): the value that receives a part and,
-- for method percent, its percentage.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_allocation_split_targets as
with source as (
    select * from _meta_allocation_split_targets
),

final as (
    select * from source
)

select * from final;
