// Evaluating the rules as of a moment (inside a writing session): the report clock pinned to --as-of, the raw tables
// shadowed by what was loaded then unless --with-restatements (known-at.ts), each rule run on its own so one that
// fails is reported and its open alerts are left alone, and the difference with the alert state as events.
import type { Config } from '../config/schema.ts';
import type { Store } from '../store/database.ts';
import { hasView } from '../store/has-view.ts';
import { errorMessage, StoreError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { visibleText } from '../util/visible-text.ts';
import { dropKnownAt, shadowKnownAt } from '../transform/known-at.ts';
import { evaluateAnomalies } from './rules/anomaly.ts';
import { anomalyCoverageNotes } from './rules/anomaly-coverage.ts';
import { evaluateBudget } from './rules/budget.ts';
import { evaluateDataQuality } from './rules/data-quality.ts';
import { evaluateRunway } from './rules/runway.ts';
import { evaluateUnitCost } from './rules/unit-cost.ts';
import { evaluateWaste } from './rules/waste.ts';
import { evaluateGuardrailProposals } from './rules/guardrail.ts';
import { mutesAt } from './mutes.ts';
import { planEvents, type StatePlan } from './state.ts';
import type { Condition, RuleKind } from './types.ts';

/**
 * A condition's title and message as a person reads them – on a terminal, in an email, a chat message or a log
 * line: a name's CR/LF or U+202E shown escaped, so it cannot start a message of its own or turn itself around
 * (issue 37 §5). The details keep the names as they are: they are data.
 */
function visibleCondition(c: Condition): Condition {
  return { ...c, title: visibleText(c.title), message: visibleText(c.message) };
}

export interface EvaluateOptions {
  config: Config;
  asOf?: Date;
  withRestatements?: boolean;
}

async function evaluate(store: Store, config: Config, now: Date, log: Logger, backTest: boolean) {
  const rules = config.alerts;
  const tasks: [RuleKind, () => Promise<Condition[]>][] = [];
  // why a condition that is no longer true cleared, by key, from the rules that can say (a budget's forecast fell
  // back to 76 %): the "resolved" message says it instead of only "no longer true"
  const clearNotes = new Map<string, string>();
  if (rules.budgets.length > 0) {
    tasks.push([
      'budget',
      async () => {
        const found: Condition[] = [];
        for (const b of rules.budgets) found.push(...(await evaluateBudget(store, b, clearNotes)));
        return found;
      },
    ]);
  }
  const notes: string[] = [];
  if (rules.anomaly.enabled) {
    tasks.push([
      'anomaly',
      async () => {
        notes.push(...(await anomalyCoverageNotes(store, rules.anomaly)));
        return evaluateAnomalies(store, rules.anomaly);
      },
    ]);
  }
  if (rules.waste.enabled) tasks.push(['waste', () => evaluateWaste(store, rules.waste.minMonthlyCost)]);
  if (rules.dataQuality.enabled) tasks.push(['data_quality', () => evaluateDataQuality(store, rules.dataQuality, now)]);
  if (rules.runway.enabled) tasks.push(['runway', () => evaluateRunway(store, rules.runway)]);
  if (rules.unitCost.enabled) tasks.push(['unit_cost', () => evaluateUnitCost(store, rules.unitCost)]);
  // the proposals waiting now: a plan is of the present (the platform as read then), so a back-test has none
  if (config.guardrails.length > 0 && !backTest) tasks.push(['guardrail', () => evaluateGuardrailProposals(store)]);

  const evaluated = new Set<RuleKind>();
  const conditions: Condition[] = [];
  const failedRules: Evaluation['failedRules'] = [];
  // one connection: the rules run one after another
  for (const [rule, run] of tasks) {
    try {
      conditions.push(...(await run()).map(visibleCondition));
      evaluated.add(rule);
    } catch (e) {
      const error = errorMessage(e);
      log.error(`rule ${rule} could not be evaluated, its open alerts are kept as they are: ${error}`);
      failedRules.push({ rule, error });
    }
  }
  return { evaluated, conditions, failedRules, notes, clearNotes };
}

export interface Evaluation {
  asOf: Date;
  evaluated: Set<RuleKind>;
  conditions: Condition[];
  failedRules: { rule: RuleKind; error: string }[];
  /** What a rule could not look at, and why (too little history): said by the dry run and the log. */
  notes: string[];
  plan: StatePlan;
  simulated: Set<string>;
}

/** Step 1's reading half: the rules as of the moment asked for, and the events that makes. */
export async function evaluateAt(store: Store, options: EvaluateOptions, now: Date, log: Logger): Promise<Evaluation> {
  if (!(await hasView(store, 'report_clock'))) {
    throw new StoreError(`${store.path} has no views yet; run gpuledger sync first`);
  }
  const knownThen = options.asOf !== undefined && !options.withRestatements;
  try {
    if (options.asOf) await store.run(`set variable gpuledger_as_of = $1::timestamptz`, [options.asOf.toISOString()]);
    else await store.run('reset variable gpuledger_as_of');
    if (knownThen) {
      await shadowKnownAt(store, options.asOf!);
      const first = await store.one<{ at: string | null }>(`select strftime(min(extracted_at), '%Y-%m-%dT%H:%M:%SZ') as at from _meta_loads`);
      if (first?.at && new Date(first.at) > options.asOf!) {
        log.warn(`nothing had been loaded by ${options.asOf!.toISOString()} (the first load was at ${first.at}); to back-test on the data as loaded now, add --with-restatements`);
      }
    }
    const clock = await store.one<{ as_of: string }>(`select strftime(as_of, '%Y-%m-%dT%H:%M:%S.%fZ') as as_of from report_clock`);
    const asOf = new Date(clock!.as_of);
    // staleness is judged at the wall clock, or at --as-of when back-testing
    const { evaluated, conditions, failedRules, notes, clearNotes } = await evaluate(store, options.config, options.asOf ?? now, log, options.asOf !== undefined);
    // a back-test compares with the alert state as it stood then: what fired later did not exist yet
    const mutes = await mutesAt(store, options.asOf ?? now);
    const plan = await planEvents(store, conditions, evaluated, asOf, now, { stateAt: options.asOf, mutes, clearNotes });
    const accountRows = await store.all<{ account: string; simulated: boolean }>(`select account, simulated from _meta_accounts`);
    const simulated = new Set(accountRows.filter((r) => r.simulated).map((r) => r.account));
    // a rule over all accounts ('*') is about simulated data when every account is
    if (accountRows.length > 0 && simulated.size === accountRows.length) simulated.add('*');
    return { asOf, evaluated, conditions, failedRules, notes, plan, simulated };
  } finally {
    if (knownThen) await dropKnownAt(store).catch(() => undefined);
    await store.run('reset variable gpuledger_as_of').catch(() => undefined);
  }
}

