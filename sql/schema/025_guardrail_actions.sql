-- 025_guardrail_actions: every write gpuledger makes to the platform (issue 40 §3). A row is written before the
-- write is sent (the intent: outcome null) and completed after the resource was read back from the inventory
-- routes; a row still without an outcome was interrupted, and the next guardrail run settles it by reading the
-- resource's state – it never sends the write again blindly.

-- _meta_guardrail_actions: one row per action (a rule's stop or scale-down) or undo (the restore of one).
create table _meta_guardrail_actions (
    action_id       varchar not null primary key,  -- <proposal id>-<n>; an undo: <action id>.undo-<n>
    proposal_id     varchar not null,              -- stable per rule, account, resource and action
    kind            varchar not null,              -- act | undo
    undoes          varchar,                       -- the action_id an undo restores
    rule            varchar not null,
    account         varchar not null,
    resource_type   varchar not null,              -- pod | endpoint
    resource_id     varchar not null,
    resource_name   varchar,
    action          varchar not null,              -- stop-pods, scale-endpoint-to-zero, workers-min-to-zero, start-pod, restore-workers
    state_before    varchar not null,              -- JSON, as read from the inventory before the write
    state_target    varchar not null,              -- JSON: what the write is to bring about
    request         varchar not null,              -- method, path and body sent (never a key)
    trigger_figure  varchar,                       -- why: the trigger's figure when the action was approved
    hourly_cost     decimal(18,6),                 -- USD per hour the resource cost when acted on
    approved_by     varchar not null,              -- automatic (rule …) | manual (user … with --approve / --all --yes)
    intended_at     timestamptz not null,          -- the row written, before the write
    outcome         varchar,                       -- null: in flight; done | no-op | forbidden | failed | unchanged | changed-elsewhere
    outcome_detail  varchar,
    state_after     varchar,                       -- JSON, as read back from the inventory
    completed_at    timestamptz
);
