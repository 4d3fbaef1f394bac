-- 026_guardrail_plans: what the guardrails proposed, plan by plan (issue 40 §5). The nightly run records a plan
-- before its report (so the report, the email and `serve` show the proposals waiting) and again after it carried
-- out the automatic rules; `guardrails apply` records the plan it acted on. Reads of the platform only: a plan row
-- is never a write to it. `serve` and the report read the latest plan; the earlier ones stay as a history.

-- _meta_guardrail_plans: one row per plan recorded, even one that proposed nothing (then the pages say so).
create table _meta_guardrail_plans (
    plan_id         varchar not null primary key,  -- p<planned_at as digits>-<command>
    planned_at      timestamptz not null,
    command         varchar not null,              -- run (before the report) | run (after the guardrails) | guardrails apply
    rules           integer not null,              -- rules configured
    rules_firing    integer not null,              -- (rule, account) pairs whose trigger fired
    proposals       integer not null
);

-- _meta_guardrail_proposals: one row per proposal of a plan – a resource a firing rule would act on.
create table _meta_guardrail_proposals (
    plan_id         varchar not null,
    proposal_id     varchar not null,              -- stable per rule, account, resource and action (apply --approve ID)
    rule            varchar not null,
    approval        varchar not null,              -- manual | automatic
    account         varchar not null,
    resource_type   varchar not null,              -- pod | endpoint
    resource_id     varchar not null,
    resource_name   varchar,
    action          varchar not null,              -- stop-pods | scale-endpoint-to-zero | workers-min-to-zero
    state_now       varchar not null,              -- JSON, as read from the inventory when planned
    state_target    varchar not null,              -- JSON: what the action would bring about
    trigger_figure  varchar,                       -- why: the trigger's figure
    hourly_cost     decimal(18,6),                 -- USD per hour the resource costs now; null: unknown
    saving_per_day  decimal(18,6),                 -- what the action saves per day at that cost; null: unknown
    disposition     varchar not null,              -- proposed | carried out | refused | not taken | beyond the cap
    primary key (plan_id, proposal_id)
);
