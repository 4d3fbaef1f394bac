-- One row per split of an allocation category (_meta_allocation_splits): the value shared out and the method.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_allocation_splits as
with source as (
    select * from _meta_allocation_splits
),

final as (
    select * from source
)

select * from final;
