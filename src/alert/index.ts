// runAlerts: evaluate the configured rules as of a moment, turn what changed into events, and deliver them and
// whatever earlier runs still owe. Three steps, and the database is held only in the first and the last:
//   1. a short writing session evaluates the rules, records the events and queues one outbox row per (event,
//      channel) in one transaction, expires what is too old, and reads what every channel owes;
//   2. with the database closed, every channel delivers at once, each within its time budget (deliver-all.ts);
//   3. a second short session records the outcomes.
// A rule that fails is reported and its open alerts are left alone (not "resolved" by accident); a channel that
// fails keeps its events pending, and they go out on the next run, oldest first, until sent or expired.
import type { Config } from '../config/schema.ts';
import type { Mailer } from '../mail/index.ts';
import type { Store } from '../store/database.ts';
import { hasView } from '../store/has-view.ts';
import { heldSessions, type WriteSessions } from '../store/shared-database.ts';
import { errorMessage, StoreError } from '../util/errors.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { buildChannels } from './channels/index.ts';
import { deliverAll } from './deliver-all.ts';
import { dropKnownAt, shadowKnownAt } from './known-at.ts';
import { expire, pendingByChannel, pendingSummary, recordOutcome, type ExpiredLine, type PendingLine } from './outbox.ts';
import { eventLine } from './payload.ts';
import { evaluateAnomalies } from './rules/anomaly.ts';
import { evaluateBudget } from './rules/budget.ts';
import { evaluateDataQuality } from './rules/data-quality.ts';
import { evaluateWaste } from './rules/waste.ts';
import { persistPlan, planEvents, type StatePlan } from './state.ts';
import type { AlertEvent, Condition, RuleKind } from './types.ts';

export interface AlertsOptions {
  /** How alerts reach the database: short writing sessions (writeSessions) … */
  sessions?: WriteSessions;
  /** … or a store the caller holds open throughout (tests). */
  store?: Store;
  config: Config;
  outDir?: string;
  log?: Logger;
  /** Evaluate as of this moment on the data as it was loaded then (known-at.ts); default the data horizon. */
  asOf?: Date;
  /** With asOf: evaluate on the data as loaded now, later restatements included. */
  withRestatements?: boolean;
  /** Print what would be sent; change no alert state and deliver nothing. */
  dryRun?: boolean;
  /** Where stdout-channel and dry-run lines go (default process.stdout). */
  stdout?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  mailer?: Mailer;
  /** Wall-clock now, for state timestamps, outbox ages and staleness (tests inject it). */
  now?: Date;
}

export interface AlertsResult {
  asOf: Date;
  dryRun: boolean;
  evaluated: RuleKind[];
  conditions: Condition[];
  /** The events this evaluation found (earlier runs' undelivered events are in `pending` until sent). */
  events: AlertEvent[];
  delivered: { channel: string; events: number; attempts: number }[];
  failedChannels: { channel: string; error: string }[];
  failedRules: { rule: RuleKind; error: string }[];
  /** What channels still owe after this run, one line per channel: keeps the exit code at 3. */
  pending: PendingLine[];
  /** What was given up on in this run, and why. */
  expired: ExpiredLine[];
}

/** "webhook:ops: 39 pending, oldest from 2026-11-20T02:00:00.000Z" */
export function pendingText(p: PendingLine): string {
  return `${p.channel}: ${p.events} pending, oldest from ${p.oldest.toISOString()}`;
}

function sessionsOf(options: AlertsOptions): WriteSessions {
  if (options.sessions) return options.sessions;
  if (options.store) return heldSessions(options.store);
  throw new Error('runAlerts needs sessions or a store');
}

async function evaluate(store: Store, config: Config, now: Date, log: Logger) {
  const rules = config.alerts;
  const tasks: [RuleKind, () => Promise<Condition[]>][] = [];
  if (rules.budgets.length > 0) {
    tasks.push([
      'budget',
      async () => {
        const found: Condition[] = [];
        for (const b of rules.budgets) found.push(...(await evaluateBudget(store, b)));
        return found;
      },
    ]);
  }
  if (rules.anomaly.enabled) tasks.push(['anomaly', () => evaluateAnomalies(store, rules.anomaly)]);
  if (rules.waste.enabled) tasks.push(['waste', () => evaluateWaste(store, rules.waste.minMonthlyCost)]);
  if (rules.dataQuality.enabled) tasks.push(['data_quality', () => evaluateDataQuality(store, rules.dataQuality, now)]);

  const evaluated = new Set<RuleKind>();
  const conditions: Condition[] = [];
  const failedRules: AlertsResult['failedRules'] = [];
  // one connection: the rules run one after another
  for (const [rule, run] of tasks) {
    try {
      conditions.push(...(await run()));
      evaluated.add(rule);
    } catch (e) {
      const error = errorMessage(e);
      log.error(`rule ${rule} could not be evaluated, its open alerts are kept as they are: ${error}`);
      failedRules.push({ rule, error });
    }
  }
  return { evaluated, conditions, failedRules };
}

interface Evaluation {
  asOf: Date;
  evaluated: Set<RuleKind>;
  conditions: Condition[];
  failedRules: AlertsResult['failedRules'];
  plan: StatePlan;
  simulated: Set<string>;
}

/** Step 1's reading half: the rules as of the moment asked for, and the events that makes. */
async function evaluateAt(store: Store, options: AlertsOptions, now: Date, log: Logger): Promise<Evaluation> {
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
    const { evaluated, conditions, failedRules } = await evaluate(store, options.config, options.asOf ?? now, log);
    const plan = await planEvents(store, conditions, evaluated, asOf, now);
    const accountRows = await store.all<{ account: string; simulated: boolean }>(`select account, simulated from _meta_accounts`);
    const simulated = new Set(accountRows.filter((r) => r.simulated).map((r) => r.account));
    // a rule over all accounts ('*') is about simulated data when every account is
    if (accountRows.length > 0 && simulated.size === accountRows.length) simulated.add('*');
    return { asOf, evaluated, conditions, failedRules, plan, simulated };
  } finally {
    if (knownThen) await dropKnownAt(store).catch(() => undefined);
    await store.run('reset variable gpuledger_as_of').catch(() => undefined);
  }
}

export async function runAlerts(options: AlertsOptions): Promise<AlertsResult> {
  const { config } = options;
  const sessions = sessionsOf(options);
  const log = options.log ?? silentLogger;
  const outDir = options.outDir ?? config.outDir;
  const stdout = options.stdout ?? process.stdout;
  const channels = options.dryRun ? [] : buildChannels(config, { outDir, env: options.env, stdout, logger: log, mailer: options.mailer });
  const now = options.now ?? new Date();
  try {
    // step 1: evaluate, record, queue, expire, read what is owed – one short session
    const step1 = await sessions.write(async (store) => {
      const ev = await evaluateAt(store, options, now, log);
      if (options.dryRun) return { ev, owed: new Map<string, AlertEvent[]>(), expired: [] as ExpiredLine[] };
      await persistPlan(store, ev.plan, ev.conditions, channels, now);
      const expired = await expire(store, channels, config.alerts.outbox.maxAgeHours, now);
      return { ev, owed: await pendingByChannel(store), expired };
    });
    const { ev, owed, expired } = step1;
    const events = ev.plan.events;
    const result: AlertsResult = {
      asOf: ev.asOf,
      dryRun: options.dryRun ?? false,
      evaluated: [...ev.evaluated],
      conditions: ev.conditions,
      events,
      delivered: [],
      failedChannels: [],
      failedRules: ev.failedRules,
      pending: [],
      expired,
    };
    log.info(
      `${ev.conditions.length} condition(s) true as of ${ev.asOf.toISOString()}` +
        (options.asOf ? (options.withRestatements ? ' (data as loaded now)' : ' (data as loaded then)') : '') +
        `; ${events.length} to announce ` +
        `(${events.filter((e) => e.event === 'fired').length} new, ${events.filter((e) => e.event === 'escalated').length} escalated, ` +
        `${events.filter((e) => e.event === 'resolved').length} resolved)`,
    );
    for (const x of expired) log.warn(`${x.channel}: gave up on ${x.events} event(s): ${x.reason}`);
    if (options.dryRun) {
      const lines = events.map((e) => `would send: ${eventLine(e, ev.simulated.has(e.account))}\n         ${e.message}\n`);
      stdout.write(lines.length > 0 ? lines.join('') : 'would send: nothing (no new, escalated or resolved alerts)\n');
      return result;
    }

    // step 2: deliver with the database closed
    const runs = await deliverAll(channels, owed, ev.simulated, config.alerts.outbox.budgetSeconds * 1000, log);

    // step 3: record the outcomes – a second short session
    const finished = new Date();
    result.pending = await sessions.write(async (store) => {
      for (const r of runs) await recordOutcome(store, r.channel, r.outcome, finished);
      return pendingSummary(store);
    });
    for (const r of runs) {
      const attempts = Math.max(0, ...r.outcome.failed.map((f) => f.attempts), r.outcome.sent.length > 0 ? 1 : 0);
      if (r.outcome.sent.length > 0) result.delivered.push({ channel: r.channel, events: r.outcome.sent.length, attempts });
      if (r.outcome.failed.length > 0 || r.outcome.untried.length > 0) {
        const first = r.outcome.failed[0];
        const error =
          `${r.outcome.failed.length + r.outcome.untried.length} of ${r.events} event(s) not delivered` +
          (first ? `: ${first.error}` : '') +
          (r.outcome.stopped ? `; ${r.outcome.stopped}` : '');
        log.error(`channel ${r.channel} failed: ${error}`);
        result.failedChannels.push({ channel: r.channel, error });
      }
    }
    for (const p of result.pending) log.warn(pendingText(p));
    return result;
  } finally {
    for (const c of channels) c.close?.();
  }
}

export type { AlertEvent, Condition, RuleKind } from './types.ts';
