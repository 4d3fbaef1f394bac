// The plans the guardrails made, recorded (_meta_guardrail_plans and _meta_guardrail_proposals,
// sql/schema/026_guardrail_plans.sql): what each firing rule proposed, with its figures and what became of it, so
// the report, the email and `serve` – which never call the platform – show the proposals waiting and their approve
// command. The only module that writes these tables; a plan is written in one transaction, whole or not at all.
import type { Store } from '../store/database.ts';
import type { Outcome } from './audit.ts';
import type { Proposal, RulePlan } from './plan.ts';

/** What a run did with a proposal (apply.ts's Acted, as far as a plan row needs it). */
interface Acted {
  proposal: { id: string };
  completed: { outcome: Outcome };
}

export type Disposition = 'proposed' | 'carried out' | 'refused' | 'not taken' | 'beyond the cap';

/** Where the plan was made: the nightly run before its report or after its guardrails, or `guardrails apply`. */
export type PlanCommand = 'run (before the report)' | 'run (after the guardrails)' | 'guardrails apply';

/** What a proposal came to: proposed (waiting, or not chosen in this run) unless the run acted on it. */
function dispositionOf(p: Proposal, acted: readonly Acted[], chosen: ReadonlySet<string>): Disposition {
  const a = acted.find((x) => x.proposal.id === p.id);
  if (a === undefined) return chosen.has(p.id) ? 'beyond the cap' : 'proposed';
  const o = a.completed.outcome;
  return o === 'done' || o === 'no-op' ? 'carried out' : o === 'forbidden' ? 'refused' : 'not taken';
}

export interface PlanRecord {
  plans: readonly RulePlan[];
  rules: number;
  command: PlanCommand;
  /** What the run carried out (empty for a plan before acting). */
  acted?: readonly Acted[];
  /** Proposals the run would have carried out (automatic or approved): one not acted on hit the rule's cap. */
  chosen?: ReadonlySet<string>;
}

/** Writes the plan: its row and one row per proposal. Returns the plan id. */
export async function recordPlan(store: Store, r: PlanRecord): Promise<string> {
  const proposals = r.plans.flatMap((p) => p.proposals);
  const firing = r.plans.length;
  const at = new Date();
  const planId = `p${at.toISOString().replace(/\D/g, '')}-${r.command.replace(/[^a-z]+/g, '-').replace(/-$/, '')}`;
  await store.transaction(async () => {
    await store.run(
      `insert into _meta_guardrail_plans (plan_id, planned_at, command, rules, rules_firing, proposals)
       values ($1, $2::timestamptz, $3, $4, $5, $6)`,
      [planId, at.toISOString(), r.command, r.rules, firing, proposals.length],
    );
    for (const p of proposals) {
      await store.run(
        `insert into _meta_guardrail_proposals (plan_id, proposal_id, rule, approval, account, resource_type, resource_id,
           resource_name, action, state_now, state_target, trigger_figure, hourly_cost, saving_per_day, disposition)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::decimal(18,6), $14::decimal(18,6), $15)`,
        [
          planId,
          p.id,
          p.rule.name,
          p.rule.approval,
          p.account,
          p.resource.type,
          p.resource.id,
          p.resource.name,
          p.rule.action,
          p.resource.state,
          p.stateTarget,
          p.figure,
          p.hourlyCost,
          p.savingPerDay,
          dispositionOf(p, r.acted ?? [], r.chosen ?? new Set()),
        ],
      );
    }
  });
  return planId;
}
