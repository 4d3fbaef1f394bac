// `guardrails undo <id>` (issue 40 §2): put back the state an action found – start the pod, restore workersMin and
// workersMax – as one more recorded, verified write (carry-out.ts), under the guardrail lock. The id is an action's
// (as apply printed it) or a proposal's, meaning its latest completed action.
import { podActionRequest, workersRequest, type WriteRequest } from '../api/index.ts';
import type { WriteSessions } from '../store/shared-database.ts';
import { UsageError } from '../util/errors.ts';
import { allRows, type AuditRow } from './audit.ts';
import { carryOut, type Completed } from './carry-out.ts';
import { publishAudit, type GuardrailAccount } from './apply.ts';
import { reconcile } from './reconcile.ts';
import { readBack } from './resources.ts';
import { acquireGuardrailLock } from './run-lock.ts';

export interface UndoOptions {
  id: string;
  accounts: readonly GuardrailAccount[];
  dbPath: string;
  sessions: WriteSessions;
  approver: string;
  command: string;
  waitMs?: number;
  signal?: AbortSignal;
  settleMs?: number;
}

/** The action an id names, or why it cannot be undone. */
function actionToUndo(rows: readonly AuditRow[], id: string): AuditRow {
  const acts = rows.filter((r) => r.kind === 'act' && (r.actionId === id || r.proposalId === id));
  const row = acts.filter((r) => r.outcome === 'done').at(-1);
  if (!row) {
    throw new UsageError(acts.length ? `${id} has no completed action to undo (its outcome: ${acts.at(-1)!.outcome ?? 'still open'})` : `no guardrail action ${id}; gpuledger query "select action_id, rule, resource_id, outcome from _meta_guardrail_actions" lists them`);
  }
  if (rows.some((r) => r.kind === 'undo' && r.undoes === row.actionId && (r.outcome === 'done' || r.outcome === 'no-op'))) {
    throw new UsageError(`${row.actionId} is already undone`);
  }
  return row;
}

function restoreRequest(row: AuditRow): { request: WriteRequest; action: string } {
  if (row.resourceType === 'pod') return { request: podActionRequest(row.resourceId, 'start'), action: 'start-pod' };
  const before = JSON.parse(row.stateBefore) as { workersMin: number; workersMax: number };
  return { request: workersRequest(row.resourceId, { workersMin: before.workersMin, workersMax: before.workersMax }), action: 'restore-workers' };
}

export async function undoGuardrail(o: UndoOptions): Promise<{ row: AuditRow; completed: Completed }> {
  const lock = await acquireGuardrailLock(o.dbPath, { command: o.command, waitMs: o.waitMs });
  try {
    await reconcile(o.sessions, new Map(o.accounts.map((a) => [a.name, a.client])), o.signal);
    const row = actionToUndo(await o.sessions.write((store) => allRows(store), { publish: false }), o.id);
    const account = o.accounts.find((a) => a.name === row.account);
    if (!account) throw new UsageError(`account ${row.account} of ${row.actionId} is not in the config`);
    const now = await readBack(account.client, row.resourceType, row.resourceId, o.signal);
    if (!now) throw new UsageError(`${row.resourceType} ${row.resourceId} is no longer listed: nothing to undo`);
    const { request, action } = restoreRequest(row);
    const completed = await carryOut(
      { sessions: o.sessions, client: account.client, apiKeyEnv: account.apiKeyEnv, signal: o.signal, settleMs: o.settleMs },
      {
        proposalId: row.proposalId,
        kind: 'undo',
        undoes: row.actionId,
        rule: row.rule,
        account: row.account,
        resourceType: row.resourceType,
        resourceId: row.resourceId,
        resourceName: row.resourceName,
        action,
        stateBefore: now.state,
        stateTarget: row.stateBefore,
        triggerFigure: null,
        hourlyCost: null,
        approvedBy: `manual: ${o.approver} with undo`,
      },
      request,
    );
    await publishAudit(o.sessions);
    return { row, completed };
  } finally {
    lock.release();
  }
}
