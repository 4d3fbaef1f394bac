// /guardrails in `serve` (issue 40 §5): the latest guardrail plan – each proposal with why, its cost and saving, and
// where it stands, the manual ones with the exact command that approves them – and every action carried out, with
// the spend it avoided. Read-only: the page never acts and never calls the platform; approving stays a CLI act,
// run by a person who holds the key.
import { dataTable, html, section } from '../present/index.ts';
import { queryAll } from '../report/index.ts';
import type { Store } from '../store/database.ts';
import { resultTable, servedPage, type PageContext } from './pages.ts';

// what to do first – where it stands, the command, what it stops and saves –, then the why and the ids: the table
// scrolls sideways on a narrow screen, and the approve command must not be the column scrolled out of sight
const PROPOSALS = `select status, approve_command, resource_name, guardrail_action, saving_per_day, hourly_cost, rule, reason,
  account, resource_kind, resource_id
from rpt_guardrail_proposals
order by status = 'waiting for approval' desc, saving_per_day desc nulls last, proposal_id`;

const ACTIONS = `select action_id, status, rule, account, resource_name, resource_id, guardrail_action, approved_by, acted_at,
  undone_at, hourly_cost, hours_stopped, spend_avoided
from rpt_guardrail_actions
order by acted_at desc nulls first, action_id`;

const PLAN = `select strftime(planned_at, '%Y-%m-%d %H:%M UTC') as at, command, rules, rules_firing, proposals
from _meta_guardrail_plans order by planned_at desc, plan_id desc limit 1`;

type PlanRow = { at: string; command: string; rules: number; rules_firing: number; proposals: number };

export async function guardrailsPage(store: Store, ctx: PageContext): Promise<string> {
  const configured = ctx.config.guardrails.length;
  const plan = await store.one<PlanRow>(PLAN);
  const proposals = resultTable(await queryAll(store, PROPOSALS, {}, 'guardrail proposals'), {
    emptyText: configured === 0 ? 'No guardrails configured (guardrails in the config; see README, Guardrails).' : 'The latest plan proposes nothing: no rule fires, or every resource in scope is already stopped.',
  });
  const actions = resultTable(await queryAll(store, ACTIONS, {}, 'guardrail actions'), { emptyText: 'No guardrail has acted yet.' });
  const lines = [
    plan
      ? `The latest plan: ${plan.at}, by ${plan.command} – ${plan.rules_firing} of ${plan.rules} rule${plan.rules === 1 ? '' : 's'} firing, ${plan.proposals} proposal${plan.proposals === 1 ? '' : 's'}.`
      : `No plan recorded yet: the nightly run (gpuledger run) records one when guardrails are configured (${configured} now).`,
    'This page only reads: approve a proposal with its command (gpuledger guardrails apply --approve ID), undo an action with gpuledger guardrails undo ACTION_ID.',
  ];
  const body = html`${section({ id: 's-proposals', title: 'Proposals of the latest plan', body: dataTable({ ...proposals, label: 'guardrail proposals', timeZone: ctx.config.timeZone }) })}${section({
    id: 's-actions',
    title: 'Actions carried out',
    body: dataTable({ ...actions, label: 'guardrail actions', timeZone: ctx.config.timeZone }),
  })}`;
  return servedPage(ctx, 'Guardrails', lines, body);
}
