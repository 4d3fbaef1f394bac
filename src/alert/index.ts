// runAlerts: evaluate the configured rules as of a moment, turn what changed into events, and deliver them and
// whatever earlier runs still owe. Three steps, and the database is held only in the first and the last:
//   1. a short writing session folds in what an earlier, stopped run had delivered (journal.ts), evaluates the
//      rules, records the events and queues one outbox row per (event, channel) in one transaction, expires what is
//      too old, and reads what every channel owes;
//   2. with the database closed, every channel delivers at once, each within its time budget, and each delivery a
//      channel acknowledges is fsynced to the journal before the channel starts its next (deliver-all.ts);
//   3. a second short session folds the journal into the outbox.
// One process delivers at a time (delivery-lock.ts). A stop (TERM, INT: options.signal) lets deliveries in flight
// finish, starts none, and still runs step 3; a KILL loses nothing acknowledged either, because the next run's step 1
// folds the journal before it reads what is owed, and the file channel finds its own lines (channels/file.ts).
// A rule that fails is reported and its open alerts are left alone (not "resolved" by accident); a channel that
// fails keeps its events pending, and they go out on the next run, oldest first, until sent or expired.
import type { Config } from '../config/schema.ts';
import type { Mailer } from '../mail/index.ts';
import type { Store } from '../store/database.ts';
import { heldSessions, SESSION_WAIT_MS, type WriteSessions } from '../store/shared-database.ts';
import { UsageError } from '../util/errors.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { buildChannels } from './channels/index.ts';
import { deliverAll, summarizeRuns } from './deliver-all.ts';
import { acquireDeliveryLock } from './delivery-lock.ts';
import { createJournal, journalPathFor, readJournal, removeJournal } from './journal.ts';
import { applyJournal, expire, pendingByChannel, pendingSummary, type ExpiredLine, type PendingLine } from './outbox.ts';
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
  /** The database (the resolved settings' dbPath; default the store's path): outputs never land on its files, and the
   * delivery lock and journal live beside it. */
  dbPath?: string;
  outDir?: string;
  log?: Logger;
  /** Back-test (with dryRun only): evaluate as of this moment on the data as it was loaded then (known-at.ts) and
   * compare with the alert state as it stood then (state-then.ts); default the data horizon and today's state. */
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
  /** How long to wait for another process delivering alerts for the same database (default SESSION_WAIT_MS). */
  waitMs?: number;
  /** Aborted on TERM/INT (its reason, e.g. 'SIGTERM', is told): deliveries in flight finish, none starts. */
  signal?: AbortSignal;
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
  /** What muted alerts would have announced, and until when they are muted: neither sent nor recorded. */
  muted: { event: AlertEvent; until: Date }[];
  /** Set when the run was told to stop (the signal's reason, e.g. 'SIGTERM'). */
  stopped?: string;
}

/** "webhook:ops: 39 pending, oldest from 2026-11-20T02:00:00.000Z" */
export function pendingText(p: PendingLine): string {
  return `${p.channel}: ${p.events} pending, oldest from ${p.oldest.toISOString()}`;
}

/** "muted until 2026-12-01T00:00:00.000Z" */
function mutedText(m: { until: Date }): string {
  return `muted until ${m.until.toISOString()}`;
}

function sessionsOf(options: AlertsOptions): WriteSessions {
  if (options.sessions) return options.sessions;
  if (options.store) return heldSessions(options.store);
  throw new Error('runAlerts needs sessions or a store');
}

export async function runAlerts(options: AlertsOptions): Promise<AlertsResult> {
  const { config } = options;
  if (options.asOf && !options.dryRun) {
    // compared with the alert state as it stood then, its events would announce again what today's state has open
    throw new UsageError('a back-test (asOf) only prints what would have been sent: it needs dryRun');
  }
  const sessions = sessionsOf(options);
  const log = options.log ?? silentLogger;
  const outDir = options.outDir ?? config.outDir;
  const stdout = options.stdout ?? process.stdout;
  const dbPath = options.dbPath ?? options.store?.path;
  if (dbPath === undefined) throw new Error('runAlerts needs dbPath when it is given sessions');
  const channels = options.dryRun ? [] : buildChannels(config, { outDir, dbPath, env: options.env, stdout, logger: log, mailer: options.mailer });
  const now = options.now ?? new Date();
  const stop = options.signal ?? new AbortController().signal;
  const lock = options.dryRun ? undefined : await acquireDeliveryLock(dbPath!, { command: 'alerts', waitMs: options.waitMs ?? SESSION_WAIT_MS, onWait: (m) => log.info(m) });
  try {
    const journal = options.dryRun ? undefined : createJournal(journalPathFor(dbPath!));
    const left = journal ? await readJournal(journal.path) : { entries: [], unreadable: 0 };
    if (left.unreadable > 0) {
      log.warn(`${left.unreadable} line(s) of ${journal!.path} were cut short by a killed run; those deliveries go out again, with the same idempotency key`);
    }
    // step 1: fold what a stopped run delivered, evaluate, record, queue, expire, read what is owed – one short session
    const step1 = await sessions.write(async (store) => {
      const ev = await evaluateAt(store, options, now, log);
      if (options.dryRun) return { ev, owed: new Map<string, AlertEvent[]>(), expired: [] as ExpiredLine[] };
      await applyJournal(store, left.entries);
      await persistPlan(store, ev.plan, ev.conditions, channels, now);
      const expired = await expire(store, channels, config.alerts.outbox.maxAgeHours, now);
      return { ev, owed: await pendingByChannel(store), expired };
    });
    if (journal) removeJournal(journal.path); // committed: a kill from here on re-folds nothing twice (applyJournal)
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
      muted: ev.plan.muted,
    };
    log.info(
      `${ev.conditions.length} condition(s) true as of ${ev.asOf.toISOString()}` +
        (options.asOf ? (options.withRestatements ? ' (data as loaded now)' : ' (data as loaded then)') : '') +
        `; ${events.length} to announce ` +
        `(${events.filter((e) => e.event === 'fired').length} new, ${events.filter((e) => e.event === 'escalated').length} escalated, ` +
        `${events.filter((e) => e.event === 'resolved').length} resolved)` +
        (ev.plan.muted.length > 0 ? `; ${ev.plan.muted.length} muted` : ''),
    );
    for (const x of expired) log.warn(`${x.channel}: gave up on ${x.events} event(s): ${x.reason}`);
    for (const m of ev.plan.muted) log.info(`${mutedText(m)} – not sent (${m.event.key})`);
    for (const note of ev.notes) log.info(note);
    if (!journal) {
      const lines = events.map((e) => `would send: ${eventLine(e, ev.simulated.has(e.account))}\n         ${e.message}\n         key ${e.key}\n`);
      stdout.write(lines.length > 0 ? lines.join('') : 'would send: nothing (no new, escalated or resolved alerts)\n');
      for (const m of ev.plan.muted) stdout.write(`${mutedText(m)}: ${eventLine(m.event, ev.simulated.has(m.event.account))}\n         key ${m.event.key}\n`);
      for (const note of ev.notes) stdout.write(`not scored: ${note}\n`);
      return result;
    }

    // step 2: deliver with the database closed; every acknowledgement is in the journal before the next delivery
    const budgetMs = config.alerts.outbox.budgetSeconds * 1000;
    const runs = await deliverAll(channels, owed, { simulated: ev.simulated, budgetMs, journal, stop, log });

    // step 3: fold this run's journal into the outbox – a second short session (also after a stop)
    result.pending = await sessions.write(async (store) => {
      await applyJournal(store, journal.entries);
      return pendingSummary(store);
    });
    removeJournal(journal.path);
    if (stop.aborted) result.stopped = typeof stop.reason === 'string' ? stop.reason : 'stopped';
    const { delivered, failedChannels } = summarizeRuns(runs, stop.aborted);
    result.delivered = delivered;
    result.failedChannels = failedChannels;
    for (const f of failedChannels) log.error(`channel ${f.channel} failed: ${f.error}`);
    for (const p of result.pending) log.warn(pendingText(p));
    return result;
  } finally {
    for (const c of channels) c.close?.();
    lock?.release();
  }
}

export type { AlertEvent, Condition, RuleKind } from './types.ts';
