-- One row per proposal of the latest guardrail plan recorded (stg_guardrail_plans, issue 40 §5): the plan's moment
-- and command with the proposal as planned; none when no plan was recorded. Whether an action carried a proposal
-- out since it was planned is read from stg_guardrail_actions (acted_at: its first done or no-op completion).
create or replace view int_guardrail_proposals as
with plans as (
    select * from stg_guardrail_plans
),

latest as (
    select * from plans
    qualify row_number() over (order by planned_at desc, plan_id desc) = 1
),

proposals as (
    select * from stg_guardrail_proposals
),

acted as (
    select proposal_id, min(completed_at) as acted_at,
    from stg_guardrail_actions
    where kind = 'act' and outcome in ('done', 'no-op')
    group by proposal_id
),

final as (
    select
        l.plan_id,
        l.planned_at,
        l.command as planned_by,
        p.* exclude (plan_id),
        a.acted_at,
    from latest as l
    inner join proposals as p on p.plan_id = l.plan_id
    left join acted as a on a.proposal_id = p.proposal_id and a.acted_at >= l.planned_at
)

select * from final;
