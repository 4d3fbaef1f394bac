// The nightly run's guardrails step (issue 40 §2), after the alerts: the automatic rules are carried out – each
// action exactly once, verified and recorded (src/guardrail/) – and the manual proposals are listed with the exact
// command that approves them. Nothing manual is ever carried out here. Before the report, the plan is made and
// recorded (reads of the platform only), so the report and its email show the proposals of this night.
import { ApiClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { ResolvedAccount } from '../extract/accounts.ts';
import { applyGuardrails, approveCommand, planGuardrails, type ApplyResult, type GuardrailAccount } from '../guardrail/index.ts';
import { recordPlan } from '../guardrail/plan-record.ts';
import type { Proposal } from '../guardrail/plan.ts';
import { decimalStringToMicros, microsToDecimalString } from '../util/decimal.ts';
import { unitText } from '../model/index.ts';
import { withBudgets } from '../alert/load-budgets.ts';
import type { WriteSessions } from '../store/shared-database.ts';
import { withReader } from '../store/shared-database.ts';
import type { Logger } from '../util/log.ts';

export interface GuardrailsStep {
  status: 'ok' | 'partial';
  detail: string;
  result: ApplyResult;
}

/** " (saves ~$14.45/day)": the waiting proposals' saving per day, when every one of them has a known cost. */
function savingText(waiting: readonly Proposal[]): string {
  if (waiting.some((p) => p.savingPerDay === null)) return '';
  const micros = waiting.reduce((sum, p) => sum + decimalStringToMicros(p.savingPerDay!), 0n);
  return ` (saves ~${unitText(microsToDecimalString(micros), 'usd', { micros: true })}/day)`;
}

interface StepOptions {
  config: Config;
  dbPath: string;
  accounts: readonly ResolvedAccount[];
  sessions: WriteSessions;
  log: Logger;
  client?: { initialRatePerSecond?: number };
  signal?: AbortSignal;
}

function clientsFor(options: StepOptions): GuardrailAccount[] {
  return options.accounts
    .filter((a) => !a.notRead)
    .map((a) => ({ name: a.name, apiKeyEnv: a.apiKeyEnv, client: new ApiClient({ baseUrl: a.apiUrl, apiKey: a.apiKey, apiKeyEnv: a.apiKeyEnv, log: options.log.child(a.name), ...options.client }) }));
}

/** Before the report: what the guardrails propose now, recorded for the report, its email and `serve`. */
export async function recordPlanBeforeReport(options: StepOptions): Promise<{ proposals: number }> {
  const { config } = options;
  const accounts = clientsFor(options);
  try {
    const plans = await withReader(options.dbPath, (store) => withBudgets(store, config.alerts.budgets, (s) => planGuardrails(config.guardrails, accounts, s, options.signal)));
    await options.sessions.write((store) => recordPlan(store, { plans, rules: config.guardrails.length, command: 'run (before the report)' }), { publish: true });
    return { proposals: plans.reduce((n, p) => n + p.proposals.length, 0) };
  } finally {
    await Promise.all(accounts.map((a) => a.client.close()));
  }
}

export async function runGuardrailsStep(options: StepOptions): Promise<GuardrailsStep> {
  const { config } = options;
  const accounts = clientsFor(options);
  try {
    const result = await applyGuardrails({
      rules: config.guardrails,
      accounts,
      dbPath: options.dbPath,
      sessions: options.sessions,
      read: (fn) => withReader(options.dbPath, (store) => withBudgets(store, config.alerts.budgets, fn)),
      approve: [],
      all: false,
      approver: 'the nightly run',
      command: 'run',
      signal: options.signal,
    });
    const done = result.acted.filter((a) => a.completed.outcome === 'done').length;
    const bad = result.acted.filter((a) => ['failed', 'changed-elsewhere', 'forbidden'].includes(a.completed.outcome)).length;
    const parts: string[] = [];
    // "0 automatic actions" says nothing when no rule is automatic
    if (config.guardrails.some((r) => r.approval === 'automatic') || done > 0) parts.push(`${done} automatic action${done === 1 ? '' : 's'} carried out`);
    if (result.reconciled.length) parts.push(`${result.reconciled.length} interrupted row(s) settled`);
    if (bad) parts.push(`${bad} not carried out (gpuledger guardrails plan says why)`);
    parts.push(...result.forbidden);
    if (result.waiting.length) {
      const n = result.waiting.length;
      const saving = savingText(result.waiting);
      parts.push(`${n} manual proposal${n === 1 ? '' : 's'} waiting${saving} – approve with: ${approveCommand(result.waiting.map((p) => p.id))}`);
    }
    if (parts.length === 0) parts.push('no guardrail fires now');
    return { status: bad || result.forbidden.length ? 'partial' : 'ok', detail: parts.join('; '), result };
  } finally {
    await Promise.all(accounts.map((a) => a.client.close()));
  }
}
