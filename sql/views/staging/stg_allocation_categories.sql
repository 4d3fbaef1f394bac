-- One row per allocation category of the config (_meta_allocation_categories): its name, the value of cost no
-- rule matches, and when it was stored.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_allocation_categories as
with source as (
    select * from _meta_allocation_categories
),

final as (
    select * from source
)

select * from final;
