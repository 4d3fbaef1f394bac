-- One row per write gpuledger made, or meant to make, to the platform (_meta_guardrail_actions): the intent
-- recorded before and the outcome after.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_guardrail_actions as
with source as (
    select * from _meta_guardrail_actions
),

final as (
    select * from source
)

select * from final;
