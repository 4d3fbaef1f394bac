-- One row per pattern of an allocation rule's match (_meta_allocation_rule_globs): the subject field it tests and
-- the glob.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_allocation_rule_globs as
with source as (
    select * from _meta_allocation_rule_globs
),

final as (
    select * from source
)

select * from final;
