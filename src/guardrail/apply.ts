// `guardrails apply` (issue 40 §2–3): under the guardrail lock, settle what an interrupted run left open, plan
// afresh, then carry out the automatic rules' proposals and those approved by id (or all, with --yes) – each
// exactly once, verified and recorded (carry-out.ts). A 403 ends that rule for that account with one line naming
// the missing permission. An approved id that is not proposed now is refused before anything is sent.
import type { ApiClient } from '../api/index.ts';
import type { GuardrailRule } from '../config/guardrails.ts';
import type { Store } from '../store/database.ts';
import type { WriteSessions } from '../store/shared-database.ts';
import { UsageError } from '../util/errors.ts';
import { carryOut, permissionFor, type Completed } from './carry-out.ts';
import { planGuardrails, type PlanAccount, type Proposal, type RulePlan } from './plan.ts';
import { recordPlan } from './plan-record.ts';
import { reconcile, type Reconciled } from './reconcile.ts';
import { acquireGuardrailLock } from './run-lock.ts';

/** The audit rows are committed in the writer copy as they are written; readers see them once this publishes. */
export async function publishAudit(sessions: WriteSessions): Promise<void> {
  await sessions.write(async () => undefined, { publish: true });
}

export interface GuardrailAccount extends PlanAccount {
  apiKeyEnv: string;
}

export interface ApplyOptions {
  rules: readonly GuardrailRule[];
  accounts: readonly GuardrailAccount[];
  dbPath: string;
  sessions: WriteSessions;
  /** Reads the published database (with the config's budgets) for the plan. */
  read: <T>(fn: (store: Store) => Promise<T>) => Promise<T>;
  approve: readonly string[];
  all: boolean;
  /** Who approves the manual proposals carried out: "alice (--approve)". */
  approver: string;
  command: string;
  waitMs?: number;
  onWait?: (message: string) => void;
  signal?: AbortSignal;
  settleMs?: number;
}

export interface Acted {
  proposal: Proposal;
  completed: Completed;
}

export interface ApplyResult {
  reconciled: Reconciled[];
  plans: RulePlan[];
  acted: Acted[];
  /** One line per rule and account a 403 ended. */
  forbidden: string[];
  /** Manual proposals not approved in this run. */
  waiting: Proposal[];
}

const verbs = { 'stop-pods': 'stop pods', 'scale-endpoint-to-zero': 'change Serverless endpoints', 'workers-min-to-zero': 'change Serverless endpoints' } as const;

export async function applyGuardrails(o: ApplyOptions): Promise<ApplyResult> {
  const lock = await acquireGuardrailLock(o.dbPath, { command: o.command, waitMs: o.waitMs, onWait: o.onWait });
  try {
    const clients = new Map<string, ApiClient>(o.accounts.map((a) => [a.name, a.client]));
    const reconciled = await reconcile(o.sessions, clients, o.signal);
    const plans = await o.read((store) => planGuardrails(o.rules, o.accounts, store, o.signal));
    const known = new Set(plans.flatMap((p) => [...p.proposals, ...p.settled].map((x) => x.id)));
    const unknown = o.approve.filter((id) => !known.has(id));
    if (unknown.length) {
      throw new UsageError(`not proposed now: ${unknown.join(', ')}; run gpuledger guardrails plan for the current proposal ids (nothing was changed)`);
    }
    const result: ApplyResult = { reconciled, plans, acted: [], forbidden: [], waiting: [] };
    const chosenIds = new Set<string>();
    for (const plan of plans) {
      const { rule } = plan;
      const account = o.accounts.find((a) => a.name === plan.account)!;
      const approvedBy = (p: Proposal) => (rule.approval === 'automatic' ? `automatic (rule ${rule.name})` : `manual: ${o.approver}${o.approve.includes(p.id) ? ' with --approve' : ' with --all --yes'}`);
      const chosen = (p: Proposal) => rule.approval === 'automatic' || o.all || o.approve.includes(p.id);
      // an interrupted run's actions of this rule count toward this run's cap
      let room = rule.maxPerRun - reconciled.filter((r) => r.row.rule === rule.name && r.row.account === plan.account && r.row.kind === 'act' && r.outcome === 'done').length;
      const settledApproved = plan.settled.filter((p) => o.approve.includes(p.id));
      for (const p of [...plan.proposals, ...settledApproved]) {
        if (!chosen(p)) {
          result.waiting.push(p);
          continue;
        }
        chosenIds.add(p.id);
        if (room <= 0) continue;
        const completed = await carryOut(
          { sessions: o.sessions, client: account.client, apiKeyEnv: account.apiKeyEnv, signal: o.signal, settleMs: o.settleMs },
          {
            proposalId: p.id,
            kind: 'act',
            undoes: null,
            rule: rule.name,
            account: plan.account,
            resourceType: p.resource.type,
            resourceId: p.resource.id,
            resourceName: p.resource.name,
            action: rule.action,
            stateBefore: p.resource.state,
            stateTarget: p.stateTarget,
            triggerFigure: p.figure,
            hourlyCost: p.hourlyCost,
            approvedBy: approvedBy(p),
          },
          p.request,
        );
        result.acted.push({ proposal: p, completed });
        if (completed.outcome === 'done') room--;
        if (completed.outcome === 'forbidden') {
          result.forbidden.push(
            `guardrail ${rule.name}, account ${plan.account}: the API key in ${account.apiKeyEnv} may not ${verbs[rule.action]} (403); give it the permission ${permissionFor(p.resource.type)} – nothing was changed (recorded as ${completed.actionId}), and this rule's other proposals for the account were not sent`,
          );
          break;
        }
      }
    }
    // the plan as this run left it – what it carried out, what waits for approval – for the report and `serve`,
    // which never call the platform; the write publishes the audit rows with it
    const command = o.command === 'run' ? 'run (after the guardrails)' : 'guardrails apply';
    await o.sessions.write((store) => recordPlan(store, { plans, rules: o.rules.length, command, acted: result.acted, chosen: chosenIds }), { publish: true });
    return result;
  } finally {
    lock.release();
  }
}
