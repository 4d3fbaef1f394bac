// The nightly run's guardrails step (issue 40 §2), after the alerts: the automatic rules are carried out – each
// action exactly once, verified and recorded (src/guardrail/) – and the manual proposals are listed with the exact
// command that approves them. Nothing manual is ever carried out here.
import { ApiClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import type { ResolvedAccount } from '../extract/accounts.ts';
import { applyGuardrails, approveCommand, type ApplyResult, type GuardrailAccount } from '../guardrail/index.ts';
import { withBudgets } from '../alert/load-budgets.ts';
import type { WriteSessions } from '../store/shared-database.ts';
import { withReader } from '../store/shared-database.ts';
import type { Logger } from '../util/log.ts';

export interface GuardrailsStep {
  status: 'ok' | 'partial';
  detail: string;
  result: ApplyResult;
}

export async function runGuardrailsStep(options: {
  config: Config;
  dbPath: string;
  accounts: readonly ResolvedAccount[];
  sessions: WriteSessions;
  log: Logger;
  client?: { initialRatePerSecond?: number };
  signal?: AbortSignal;
}): Promise<GuardrailsStep> {
  const { config } = options;
  const accounts: GuardrailAccount[] = options.accounts
    .filter((a) => !a.notRead)
    .map((a) => ({ name: a.name, apiKeyEnv: a.apiKeyEnv, client: new ApiClient({ baseUrl: a.apiUrl, apiKey: a.apiKey, apiKeyEnv: a.apiKeyEnv, log: options.log.child(a.name), ...options.client }) }));
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
    const parts = [`${done} automatic action${done === 1 ? '' : 's'} carried out`];
    if (result.reconciled.length) parts.push(`${result.reconciled.length} interrupted row(s) settled`);
    if (bad) parts.push(`${bad} not carried out (gpuledger guardrails plan says why)`);
    parts.push(...result.forbidden);
    if (result.waiting.length) parts.push(`${result.waiting.length} manual proposal${result.waiting.length === 1 ? '' : 's'} waiting – approve with: ${approveCommand(result.waiting.map((p) => p.id))}`);
    return { status: bad || result.forbidden.length ? 'partial' : 'ok', detail: parts.join('; '), result };
  } finally {
    await Promise.all(accounts.map((a) => a.client.close()));
  }
}
