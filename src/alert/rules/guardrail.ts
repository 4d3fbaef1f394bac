// Guardrail rule: every proposal of the latest guardrail plan that waits for a person's approval
// (rpt_guardrail_proposals, issue 40 §2), with the exact command that approves it – so the alert that reaches the
// team names what would stop the spend, and that nothing is stopped until someone runs that command. A proposal's
// id is stable, so it alerts once and resolves when it is carried out or no longer proposed.
import type { Store } from '../../store/database.ts';
import { unitText } from '../../model/index.ts';
import type { Condition } from '../types.ts';

type Waiting = {
  proposal_id: string;
  rule: string;
  account: string;
  resource_kind: string;
  resource_id: string;
  resource_name: string | null;
  guardrail_action: string;
  reason: string | null;
  hourly_cost: string | null;
  saving_per_day: string | null;
  approve_command: string;
};

const ACTION_WORDS: Record<string, string> = {
  'stop-pods': 'stop pod',
  'scale-endpoint-to-zero': 'scale endpoint to zero',
  'workers-min-to-zero': 'workersMin to 0 on endpoint',
};

const WAITING = `select proposal_id, rule, account, resource_kind, resource_id, resource_name, guardrail_action, reason,
  hourly_cost::varchar as hourly_cost, saving_per_day::varchar as saving_per_day, approve_command
from rpt_guardrail_proposals where status = 'waiting for approval' order by proposal_id`;

export async function evaluateGuardrailProposals(store: Store): Promise<Condition[]> {
  const rows = await store.all<Waiting>(WAITING);
  return rows.map((p) => {
    const name = p.resource_name ?? p.resource_id;
    const what = `${ACTION_WORDS[p.guardrail_action] ?? p.guardrail_action} ${name}`;
    const saving = p.saving_per_day === null ? '' : `, saves ~${unitText(p.saving_per_day, 'usd', { micros: true })}/day`;
    const cost = p.hourly_cost === null ? 'its cost per hour is unknown' : `it costs ${unitText(p.hourly_cost, 'usd', { micros: true })}/h now`;
    return {
      key: `guardrail:${p.proposal_id}`,
      rule: 'guardrail' as const,
      account: p.account,
      level: 1,
      // a month of the saving, weighed as the waste rule weighs a finding
      severity: p.saving_per_day !== null && Number(p.saving_per_day) * 30 >= 100 ? ('warning' as const) : ('info' as const),
      title: `Guardrail ${p.rule} proposes: ${what}${saving}`,
      message:
        `Guardrail ${p.rule} (manual) proposes to ${what} (${p.resource_kind} ${p.resource_id}, ${p.account})${p.reason ? ` because ${p.reason}` : ''}; ` +
        `${cost}. Nothing is changed until a person approves: ${p.approve_command} (undo puts it back: gpuledger guardrails undo).`,
      details: { ...p },
    };
  });
}
