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
import { heldSessions, type WriteSessions } from '../store/shared-database.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { buildChannels } from './channels/index.ts';
import { deliverAll } from './deliver-all.ts';
import { expire, pendingByChannel, pendingSummary, recordOutcome, type ExpiredLine, type PendingLine } from './outbox.ts';
import { eventLine } from './payload.ts';
import { evaluateAt } from './evaluate.ts';
import { persistPlan } from './state.ts';
import type { AlertEvent, Condition, RuleKind } from './types.ts';

export interface AlertsOptions {
  /** How alerts reach the database: short writing sessions (writeSessions) … */
  sessions?: WriteSessions;
  /** … or a store the caller holds open throughout (tests). */
  store?: Store;
  config: Config;
  /** The database (the resolved settings' dbPath); default the store's path. Outputs never land on its files. */
  dbPath?: string;
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

export async function runAlerts(options: AlertsOptions): Promise<AlertsResult> {
  const { config } = options;
  const sessions = sessionsOf(options);
  const log = options.log ?? silentLogger;
  const outDir = options.outDir ?? config.outDir;
  const stdout = options.stdout ?? process.stdout;
  const dbPath = options.dbPath ?? options.store?.path;
  if (dbPath === undefined) throw new Error('runAlerts needs dbPath when it is given sessions');
  const channels = options.dryRun ? [] : buildChannels(config, { outDir, dbPath, env: options.env, stdout, logger: log, mailer: options.mailer });
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
    for (const note of ev.notes) log.info(note);
    if (options.dryRun) {
      const lines = events.map((e) => `would send: ${eventLine(e, ev.simulated.has(e.account))}\n         ${e.message}\n`);
      stdout.write(lines.length > 0 ? lines.join('') : 'would send: nothing (no new, escalated or resolved alerts)\n');
      for (const note of ev.notes) stdout.write(`not scored: ${note}\n`);
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
