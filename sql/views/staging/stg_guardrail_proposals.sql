-- One row per proposal of a recorded guardrail plan (_meta_guardrail_proposals): the resource, the action,
-- why and its figures.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_guardrail_proposals as
with source as (
    select * from _meta_guardrail_proposals
),

final as (
    select * from source
)

select * from final;
