-- One row per guardrail action (kind act) of _meta_guardrail_actions (issue 40 §3), as of report_clock: the audit
-- row, when its first completed undo put the resource back (undone_at), and for a done action the hours it has held
-- – from its completion until undone_at or the clock (hours_stopped).
-- The mart the report views read; computed in int_guardrail_actions, which reads staging.
create or replace view guardrail_actions as
with actions as (
    select * from int_guardrail_actions
),

final as (
    select * from actions
)

select * from final;
