-- One row per proposal of the latest guardrail plan (issue 40 §5): the plan's moment and command, the proposal as
-- planned, and when an action carried it out since (acted_at).
-- The mart the report views read; computed in int_guardrail_proposals, which reads staging.
create or replace view guardrail_proposals as
with proposals as (
    select * from int_guardrail_proposals
),

final as (
    select * from proposals
)

select * from final;
