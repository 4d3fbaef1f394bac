// Alert state in DuckDB (sql/schema/004_alerts.sql): compare what the rules found with what was already announced,
// and turn the difference into events – fired (new), escalated (its level rose), resolved (gone). Persisting is one
// transaction with the outbox rows, so a failed run announces nothing twice and forgets nothing.
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/database.ts';
import { enqueue, type OutboxChannel } from './outbox.ts';
import { mutedUntil } from './mutes.ts';
import { firingAt, type StateRow } from './state-then.ts';
import type { AlertEvent, Condition, RuleKind } from './types.ts';

export interface StatePlan {
  events: AlertEvent[];
  /** Conditions still firing at the same or a lower level: only last_seen_at moves. */
  unchanged: Condition[];
  /** Firing conditions whose period ended, or that a condition supersedes: closed without a message. */
  expired: string[];
  /** Events of muted alerts, with the end of their mute: neither sent nor recorded, so the state stays as it was
   * and the first run after the mute announces what changed. */
  muted: { event: AlertEvent; until: Date }[];
}

export interface PlanOptions {
  /** A back-test: compare with the alert state as it stood at this moment (state-then.ts), not today's. */
  stateAt?: Date;
  /** Mutes in force (mutes.ts mutesAt): a muted alert's events are held back, not announced and not recorded. */
  mutes?: ReadonlyMap<string, Date>;
  /** Why a condition that is no longer true cleared, by key, where its rule can say (evaluate.ts). */
  clearNotes?: ReadonlyMap<string, string>;
}

export async function planEvents(
  store: Store,
  conditions: readonly Condition[],
  evaluated: ReadonlySet<RuleKind>,
  asOf: Date,
  now: Date,
  options: PlanOptions = {},
): Promise<StatePlan> {
  const rows = options.stateAt
    ? await firingAt(store, options.stateAt)
    : await store.all<StateRow>(
        `select alert_key, rule, account, status, level, severity, title, details::varchar as details from _meta_alert_state where status = 'firing'`,
      );
  const firing = new Map(rows.map((r) => [r.alert_key, r]));
  const plan: StatePlan = { events: [], unchanged: [], expired: [], muted: [] };
  const event = (kind: AlertEvent['event'], c: Omit<Condition, 'expiresAt'>): AlertEvent => ({
    eventId: randomUUID(),
    event: kind,
    key: c.key,
    rule: c.rule,
    account: c.account,
    severity: c.severity,
    level: c.level,
    title: c.title,
    message: c.message,
    details: c.details,
    asOf,
    createdAt: now,
  });

  const seen = new Set<string>();
  for (const c of conditions) {
    if (seen.has(c.key)) continue; // a rule that reports one key twice keeps the first
    seen.add(c.key);
    const state = firing.get(c.key);
    if (!state) plan.events.push(event('fired', c));
    else if (c.level > state.level) plan.events.push(event('escalated', c));
    else plan.unchanged.push(c);
  }
  const superseded = new Set(conditions.flatMap((c) => c.supersedes ?? []));
  for (const state of rows) {
    if (seen.has(state.alert_key) || !evaluated.has(state.rule)) continue;
    if (superseded.has(state.alert_key)) {
      plan.expired.push(state.alert_key);
      continue;
    }
    const details = state.details ? (JSON.parse(state.details) as Record<string, unknown>) : {};
    const expiresAt = typeof details.expires_at === 'string' ? new Date(details.expires_at) : undefined;
    if (expiresAt && asOf >= expiresAt) {
      plan.expired.push(state.alert_key);
      continue;
    }
    plan.events.push(
      event('resolved', {
        key: state.alert_key,
        rule: state.rule,
        account: state.account,
        level: state.level,
        // the severity it fired with, so every channel that heard of it hears that it is over
        severity: state.severity,
        title: `Resolved: ${state.title}`,
        message: `No longer true as of ${asOf.toISOString()}: ${state.title}.${options.clearNotes?.has(state.alert_key) ? ` ${options.clearNotes.get(state.alert_key)}` : ''}`,
        details,
      }),
    );
  }
  if (options.mutes && options.mutes.size > 0) {
    const all = plan.events;
    plan.events = [];
    for (const e of all) {
      const until = mutedUntil(options.mutes, e);
      if (until) plan.muted.push({ event: e, until });
      else plan.events.push(e);
    }
  }
  return plan;
}

function detailsJson(c: Pick<Condition, 'details' | 'expiresAt'>): string {
  return JSON.stringify({ ...c.details, ...(c.expiresAt ? { expires_at: c.expiresAt.toISOString() } : {}) });
}

/** Write the plan: state rows, the event log and the outbox rows of every channel, in one transaction. */
export async function persistPlan(
  store: Store,
  plan: StatePlan,
  conditions: readonly Condition[],
  channels: readonly OutboxChannel[],
  now: Date,
): Promise<void> {
  const byKey = new Map(conditions.map((c) => [c.key, c]));
  const ts = now.toISOString();
  await store.transaction(async () => {
    for (const e of plan.events) {
      await store.run(
        `insert into _meta_alert_events values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz, $11::timestamptz, $12::json)`,
        [e.eventId, e.key, e.event, e.rule, e.account, e.severity, e.level, e.title, e.message, e.asOf.toISOString(), ts, JSON.stringify(e.details)],
      );
      if (e.event === 'resolved') {
        await store.run(`update _meta_alert_state set status = 'resolved', resolved_at = $2::timestamptz where alert_key = $1`, [e.key, ts]);
        continue;
      }
      const c = byKey.get(e.key)!;
      await store.run(
        `insert into _meta_alert_state
             (alert_key, rule, account, status, level, severity, title, first_fired_at, last_notified_at, last_seen_at, resolved_at, details)
         values ($1, $2, $3, 'firing', $4, $5, $6, $7::timestamptz, $7::timestamptz, $7::timestamptz, null, $8::json)
         on conflict (alert_key) do update set
             status = 'firing', level = excluded.level, severity = excluded.severity, title = excluded.title,
             first_fired_at = case when _meta_alert_state.status = 'firing' then _meta_alert_state.first_fired_at else excluded.first_fired_at end,
             last_notified_at = excluded.last_notified_at, last_seen_at = excluded.last_seen_at, resolved_at = null,
             details = excluded.details`,
        [c.key, c.rule, c.account, c.level, c.severity, c.title, ts, detailsJson(c)],
      );
    }
    for (const c of plan.unchanged) {
      // the level stays at the highest announced, so a condition that dips and comes back does not page again
      await store.run(`update _meta_alert_state set last_seen_at = $2::timestamptz, details = $3::json where alert_key = $1`, [c.key, ts, detailsJson(c)]);
    }
    for (const key of plan.expired) {
      await store.run(`update _meta_alert_state set status = 'resolved', resolved_at = $2::timestamptz where alert_key = $1`, [key, ts]);
    }
    // queued with the event, so an event recorded is an event owed: a crash before delivery loses nothing
    await enqueue(store, plan.events, channels, now);
  });
}
