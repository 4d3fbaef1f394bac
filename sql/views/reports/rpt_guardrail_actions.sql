-- One row per guardrail action (not its undo), as of report_clock: the rule, the resource, its outcome (status: null
-- while in flight) and who approved it, when it took effect (acted_at) and when it was undone (undone_at: null while
-- it holds), the hourly cost stopped (hourly_cost: a pod's compute per hour, an endpoint's last-day average, when
-- the action was taken) and the estimated spend avoided – hourly_cost × hours_stopped, the hours from acted_at
-- until undone_at or the clock – for a done action only; null for every other outcome and when the cost was unknown.
create or replace view rpt_guardrail_actions as
with actions as (
    select * from guardrail_actions
),

final as (
    select
        action_id,
        rule,
        account,
        resource_type as resource_kind,
        resource_id,
        resource_name,
        action as guardrail_action,
        outcome as status,
        approved_by,
        trigger_figure as reason,
        completed_at as acted_at,
        undone_at,
        hourly_cost,
        round(hours_stopped, 1)::decimal(18,1) as hours_stopped,
        (hourly_cost * hours_stopped)::decimal(18,2) as spend_avoided,
    from actions
)

select * from final;
