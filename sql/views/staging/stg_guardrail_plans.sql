-- One row per guardrail plan recorded (_meta_guardrail_plans): when, by which command, how many rules
-- fired and how many proposals it made.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_guardrail_plans as
with source as (
    select * from _meta_guardrail_plans
),

final as (
    select * from source
)

select * from final;
