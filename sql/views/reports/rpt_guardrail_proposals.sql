-- One row per proposal of the latest guardrail plan (issue 40 §5): the rule and who approves it, the resource, the
-- action and why (reason: the trigger's figure), the hourly cost and the saving per day it would bring, and where it
-- stands – waiting for approval (with the exact command that approves it), carried out (by the run that planned it
-- or since), refused (the key lacks the permission), not taken, or beyond the rule's cap. The manual rules only
-- propose: nothing here is carried out without `guardrails apply --approve`.
create or replace view rpt_guardrail_proposals as
with proposals as (
    select * from guardrail_proposals
),

final as (
    select
        proposal_id,
        rule,
        approval,
        account,
        resource_type as resource_kind,
        resource_id,
        resource_name,
        action as guardrail_action,
        trigger_figure as reason,
        hourly_cost,
        saving_per_day::decimal(18,2) as saving_per_day,
        case
            when disposition = 'carried out' or acted_at is not null then 'carried out'
            when disposition = 'proposed' and approval = 'manual' then 'waiting for approval'
            when disposition = 'proposed' then 'automatic: the next run carries it out'
            else disposition
        end as status,
        case
            when disposition = 'proposed' and approval = 'manual' and acted_at is null
                then 'gpuledger guardrails apply --approve ' || proposal_id
        end as approve_command,
        planned_at,
        planned_by,
    from proposals
)

select * from final;
