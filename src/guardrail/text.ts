// What `guardrails plan` and `apply` print: one block per rule and account that fires, one line per proposal with
// its id, the resource, its state and cost per hour, and the saving per day; the exact command that approves the
// manual ones. Names come from the platform and may be hostile: control and bidi characters are shown escaped
// (visible-text.ts) and a long name is cut, so a name can neither fake a line nor bury one.
import { unitText } from '../model/index.ts';
import { visibleText } from '../util/visible-text.ts';
import type { ApplyResult } from './apply.ts';
import type { Proposal, RulePlan } from './plan.ts';

const NAME_LENGTH = 60;

export function shownName(name: string | null): string {
  if (name === null) return '(no name)';
  const cut = [...name].length > NAME_LENGTH ? `${[...name].slice(0, NAME_LENGTH).join('')}…` : name;
  return visibleText(cut);
}

const stateText = (state: string): string => {
  const s = JSON.parse(state) as { status?: string; workersMin?: number; workersMax?: number };
  return s.status ?? `workersMin ${s.workersMin}, workersMax ${s.workersMax}`;
};

const verb = (p: Proposal): string =>
  p.rule.action === 'stop-pods' ? 'stop pod' : p.rule.action === 'scale-endpoint-to-zero' ? 'scale to zero endpoint' : 'workersMin to 0 on endpoint';

export function proposalLine(p: Proposal): string {
  const cost = p.hourlyCost === null ? 'cost unknown' : `${unitText(p.hourlyCost, 'usd', { micros: true })}/h`;
  const saving =
    p.savingPerDay === null ? 'saving unknown' : `saves ~${unitText(p.savingPerDay, 'usd', { micros: true })}/day`;
  return `  ${p.id}  ${verb(p)} ${shownName(p.resource.name)} (${visibleText(p.resource.id)}): ${stateText(p.resource.state)} → ${stateText(p.stateTarget)}, ${cost}, ${saving}`;
}

export const approveCommand = (ids: readonly string[]): string => `gpuledger guardrails apply --approve ${ids.join(' ')}`;

export function planText(plans: readonly RulePlan[]): string[] {
  if (plans.length === 0) return ['no guardrail fires now'];
  const lines: string[] = [];
  for (const p of plans) {
    lines.push(`guardrail ${p.rule.name} (${p.rule.approval}), account ${visibleText(p.account)}: ${p.firing.figure}`);
    if (p.proposals.length === 0) lines.push('  nothing to do: every resource in scope is already there');
    lines.push(...p.proposals.map(proposalLine));
    if (p.capped > 0) lines.push(`  … and ${p.capped} more beyond maxPerRun ${p.rule.maxPerRun} (a later run takes them)`);
    if (p.rule.approval === 'manual' && p.proposals.length) lines.push(`  approve: ${approveCommand(p.proposals.map((x) => x.id))}`);
  }
  return lines;
}

export function applyText(r: ApplyResult): string[] {
  const lines: string[] = [];
  for (const x of r.reconciled) {
    lines.push(`settled ${x.row.actionId} (${x.row.rule}, ${x.row.resourceType} ${visibleText(x.row.resourceId)}) left open by an interrupted run: ${x.outcome ?? 'still open'} – ${x.detail}`);
  }
  // a refusal (403) is said once, by its rule's line below
  for (const a of r.acted.filter((x) => x.completed.outcome !== 'forbidden')) {
    lines.push(`${a.completed.actionId}  ${a.completed.outcome}: ${verb(a.proposal)} ${shownName(a.proposal.resource.name)} (${visibleText(a.proposal.resource.id)}) – ${a.completed.detail}${a.completed.outcome === 'done' ? `; undo: gpuledger guardrails undo ${a.completed.actionId}` : ''}`);
  }
  lines.push(...r.forbidden);
  if (r.waiting.length) lines.push(`waiting for approval: ${approveCommand(r.waiting.map((p) => p.id))}`);
  if (lines.length === 0) lines.push('nothing to do: no automatic rule fires and nothing was approved');
  return lines;
}
