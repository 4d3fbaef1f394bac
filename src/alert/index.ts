// runAlerts: evaluate the configured rules as of a moment, turn what changed into events, record them, and deliver
// them to every channel. A rule that fails is reported and its open alerts are left alone (not "resolved" by
// accident); a channel that fails is recorded and reported while the others still deliver.
import type { Config } from '../config/schema.ts';
import type { Mailer } from '../mail/index.ts';
import type { Store } from '../store/database.ts';
import { hasView } from '../store/has-view.ts';
import { errorMessage, StoreError } from '../util/errors.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { buildChannels } from './channels/index.ts';
import { ChannelError, type Channel } from './channels/channel.ts';
import { eventLine } from './payload.ts';
import { evaluateAnomalies } from './rules/anomaly.ts';
import { evaluateBudget } from './rules/budget.ts';
import { evaluateDataQuality } from './rules/data-quality.ts';
import { evaluateRunway } from './rules/runway.ts';
import { evaluateWaste } from './rules/waste.ts';
import { persistPlan, planEvents, recordDelivery } from './state.ts';
import { SEVERITY_RANK, type AlertEvent, type Condition, type RuleKind } from './types.ts';

export interface AlertsOptions {
  store: Store;
  config: Config;
  outDir?: string;
  log?: Logger;
  /** Evaluate as of this moment (only data loaded by then is meant to count); default the data horizon. */
  asOf?: Date;
  /** Print what would be sent; change no alert state and deliver nothing. */
  dryRun?: boolean;
  /** Where stdout-channel and dry-run lines go (default process.stdout). */
  stdout?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  mailer?: Mailer;
  /** Wall-clock now, for state timestamps and staleness (tests inject it). */
  now?: Date;
}

export interface AlertsResult {
  asOf: Date;
  dryRun: boolean;
  evaluated: RuleKind[];
  conditions: Condition[];
  events: AlertEvent[];
  delivered: { channel: string; events: number; attempts: number }[];
  failedChannels: { channel: string; error: string }[];
  failedRules: { rule: RuleKind; error: string }[];
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
  if (rules.runway.enabled) tasks.push(['runway', () => evaluateRunway(store, rules.runway)]);

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

async function deliver(
  store: Store,
  channels: readonly Channel[],
  events: readonly AlertEvent[],
  simulated: ReadonlySet<string>,
  now: Date,
  log: Logger,
  result: AlertsResult,
): Promise<void> {
  for (const channel of channels) {
    const batch = events.filter((e) => SEVERITY_RANK[e.severity] >= SEVERITY_RANK[channel.minSeverity]);
    if (batch.length === 0) continue;
    try {
      const { attempts } = await channel.deliver(batch, { simulated });
      await recordDelivery(store, batch.map((e) => e.eventId), channel.id, { ok: true, attempts }, now);
      result.delivered.push({ channel: channel.id, events: batch.length, attempts });
    } catch (e) {
      const error = errorMessage(e);
      const attempts = e instanceof ChannelError ? e.attempts : 1;
      const failed = new Set(e instanceof ChannelError && e.failedEventIds ? e.failedEventIds : batch.map((x) => x.eventId));
      const ok = batch.filter((x) => !failed.has(x.eventId)).map((x) => x.eventId);
      if (ok.length > 0) await recordDelivery(store, ok, channel.id, { ok: true, attempts }, now);
      await recordDelivery(store, [...failed], channel.id, { ok: false, attempts, error }, now);
      log.error(`channel ${channel.id} failed: ${error}`);
      result.failedChannels.push({ channel: channel.id, error });
    }
  }
}

export async function runAlerts(options: AlertsOptions): Promise<AlertsResult> {
  const { store, config } = options;
  const log = options.log ?? silentLogger;
  const outDir = options.outDir ?? config.outDir;
  const stdout = options.stdout ?? process.stdout;
  const channels = options.dryRun ? [] : buildChannels(config, { outDir, env: options.env, stdout, logger: log, mailer: options.mailer });
  try {
    if (!(await hasView(store, 'report_clock'))) {
      throw new StoreError(`${store.path} has no views yet; run gpuledger sync first`);
    }
    if (options.asOf) await store.run(`set variable gpuledger_as_of = $1::timestamptz`, [options.asOf.toISOString()]);
    else await store.run('reset variable gpuledger_as_of');
    const clock = await store.one<{ as_of: string }>(`select strftime(as_of, '%Y-%m-%dT%H:%M:%S.%fZ') as as_of from report_clock`);
    const asOf = new Date(clock!.as_of);
    const now = options.now ?? new Date();
    // staleness is judged at the wall clock, or at --as-of when back-testing
    const { evaluated, conditions, failedRules } = await evaluate(store, config, options.asOf ?? now, log);
    const plan = await planEvents(store, conditions, evaluated, asOf, now);
    const accountRows = await store.all<{ account: string; simulated: boolean }>(`select account, simulated from _meta_accounts`);
    const simulated = new Set(accountRows.filter((r) => r.simulated).map((r) => r.account));
    // a rule over all accounts ('*') is about simulated data when every account is
    if (accountRows.length > 0 && simulated.size === accountRows.length) simulated.add('*');
    const result: AlertsResult = {
      asOf,
      dryRun: options.dryRun ?? false,
      evaluated: [...evaluated],
      conditions,
      events: plan.events,
      delivered: [],
      failedChannels: [],
      failedRules,
    };
    log.info(
      `${conditions.length} condition(s) true as of ${asOf.toISOString()}; ${plan.events.length} to announce ` +
        `(${plan.events.filter((e) => e.event === 'fired').length} new, ${plan.events.filter((e) => e.event === 'escalated').length} escalated, ` +
        `${plan.events.filter((e) => e.event === 'resolved').length} resolved)`,
    );
    if (options.dryRun) {
      const lines = plan.events.map((e) => `would send: ${eventLine(e, simulated.has(e.account))}\n         ${e.message}\n`);
      stdout.write(lines.length > 0 ? lines.join('') : 'would send: nothing (no new, escalated or resolved alerts)\n');
      return result;
    }
    await persistPlan(store, plan, conditions, now);
    if (plan.events.length > 0) await deliver(store, channels, plan.events, simulated, now, log, result);
    return result;
  } finally {
    for (const c of channels) c.close?.();
    await store.run('reset variable gpuledger_as_of').catch(() => undefined);
  }
}

export type { AlertEvent, Condition, RuleKind } from './types.ts';
