-- One row per allocation rule of a category (_meta_allocation_rules), numbered in the config's order, with the
-- value it assigns.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_allocation_rules as
with source as (
    select * from _meta_allocation_rules
),

final as (
    select * from source
)

select * from final;
