// The audit of every write (_meta_guardrail_actions, sql/schema/025_guardrail_actions.sql): the intent is written –
// and committed – before the write is sent, the outcome after the resource was read back. The only module that
// reads or writes the table.
import type { Store } from '../store/database.ts';

export type Outcome = 'done' | 'no-op' | 'forbidden' | 'failed' | 'unchanged' | 'changed-elsewhere';

export interface Intent {
  actionId: string;
  proposalId: string;
  kind: 'act' | 'undo';
  undoes: string | null;
  rule: string;
  account: string;
  resourceType: 'pod' | 'endpoint';
  resourceId: string;
  resourceName: string | null;
  action: string;
  stateBefore: string;
  stateTarget: string;
  request: string;
  triggerFigure: string | null;
  hourlyCost: string | null;
  approvedBy: string;
}

export interface AuditRow extends Intent {
  intendedAt: string;
  outcome: Outcome | null;
  outcomeDetail: string | null;
  stateAfter: string | null;
  completedAt: string | null;
}

const COLUMNS = `action_id, proposal_id, kind, undoes, rule, account, resource_type, resource_id, resource_name, action,
  state_before, state_target, request, trigger_figure, hourly_cost::varchar as hourly_cost, approved_by,
  intended_at::varchar as intended_at, outcome, outcome_detail, state_after, completed_at::varchar as completed_at`;

type Raw = Record<string, string | null>;
const toRow = (r: Raw): AuditRow => ({
  actionId: r.action_id!,
  proposalId: r.proposal_id!,
  kind: r.kind as 'act' | 'undo',
  undoes: r.undoes ?? null,
  rule: r.rule!,
  account: r.account!,
  resourceType: r.resource_type as 'pod' | 'endpoint',
  resourceId: r.resource_id!,
  resourceName: r.resource_name ?? null,
  action: r.action!,
  stateBefore: r.state_before!,
  stateTarget: r.state_target!,
  request: r.request!,
  triggerFigure: r.trigger_figure ?? null,
  hourlyCost: r.hourly_cost ?? null,
  approvedBy: r.approved_by!,
  intendedAt: r.intended_at!,
  outcome: (r.outcome ?? null) as Outcome | null,
  outcomeDetail: r.outcome_detail ?? null,
  stateAfter: r.state_after ?? null,
  completedAt: r.completed_at ?? null,
});

export async function recordIntent(store: Store, i: Intent): Promise<void> {
  await store.run(
    `insert into _meta_guardrail_actions (action_id, proposal_id, kind, undoes, rule, account, resource_type, resource_id, resource_name, action,
       state_before, state_target, request, trigger_figure, hourly_cost, approved_by, intended_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::decimal(18,6), $16, now())`,
    [i.actionId, i.proposalId, i.kind, i.undoes, i.rule, i.account, i.resourceType, i.resourceId, i.resourceName, i.action, i.stateBefore, i.stateTarget, i.request, i.triggerFigure, i.hourlyCost, i.approvedBy],
  );
}

export async function recordOutcome(store: Store, actionId: string, outcome: Outcome, detail: string, stateAfter: string | null): Promise<void> {
  // only an open row is completed: a row never changes once it has an outcome
  await store.run(
    `update _meta_guardrail_actions set outcome = $2, outcome_detail = $3, state_after = $4, completed_at = now()
     where action_id = $1 and outcome is null`,
    [actionId, outcome, detail, stateAfter],
  );
}

/** Rows still without an outcome: interrupted between the intent and the outcome. */
export async function openRows(store: Store): Promise<AuditRow[]> {
  return (await store.all<Raw>(`select ${COLUMNS} from _meta_guardrail_actions where outcome is null order by intended_at, action_id`)).map(toRow);
}

export async function allRows(store: Store): Promise<AuditRow[]> {
  return (await store.all<Raw>(`select ${COLUMNS} from _meta_guardrail_actions order by intended_at, action_id`)).map(toRow);
}

/** The id of a proposal's next action (`<proposal>-<n>`), or of an action's next undo (`<action>.undo-<n>`). */
export async function nextActionId(store: Store, of: { proposalId: string } | { undoes: string }): Promise<string> {
  const [sql, key, id] =
    'undoes' in of
      ? ([`select count(*)::varchar as n from _meta_guardrail_actions where undoes = $1`, of.undoes, (n: number) => `${of.undoes}.undo-${n}`] as const)
      : ([`select count(*)::varchar as n from _meta_guardrail_actions where proposal_id = $1 and kind = 'act'`, of.proposalId, (n: number) => `${of.proposalId}-${n}`] as const);
  const row = await store.one<{ n: string }>(sql, [key]);
  return id(Number(row?.n ?? 0) + 1);
}
