// The per-channel outbox (sql/schema/006_alert_outbox.sql): one row per (event, channel) queued with the event,
// marked sent once the channel took it, expired once it is older than alerts.outbox.maxAgeHours, rejected when the
// receiver refused it. Every function here runs inside a short writing session; delivery itself happens between
// two of them, with the database closed, and what it settles reaches the outbox through the journal (journal.ts).
import { listValue } from '../util/duckdb-api.ts';
import type { Store } from '../store/database.ts';
import { redact } from '../util/secrets.ts';
import type { JournalEntry } from './journal.ts';
import type { EventPayload } from './payload.ts';
import { SEVERITY_RANK, type AlertEvent } from './types.ts';
import type { Severity } from '../config/alerts.ts';

export interface OutboxChannel {
  id: string;
  minSeverity: Severity;
}

export interface PendingLine {
  channel: string;
  events: number;
  oldest: Date;
}

export interface ExpiredLine {
  channel: string;
  events: number;
  reason: string;
}

/** Queue each event for every channel whose minimum severity it meets (inside the transaction that records it). */
export async function enqueue(store: Store, events: readonly AlertEvent[], channels: readonly OutboxChannel[], now: Date): Promise<void> {
  for (const channel of channels) {
    const owed = events.filter((e) => SEVERITY_RANK[e.severity] >= SEVERITY_RANK[channel.minSeverity]);
    for (const [position, e] of owed.entries()) {
      await store.run(
        `insert into _meta_alert_outbox (event_id, channel, position, queued_at, status) values ($1, $2, $3, $4::timestamptz, 'pending')`,
        [e.eventId, channel.id, position, now.toISOString()],
      );
    }
  }
}

/**
 * Give up on what is too old, and on what is owed to a channel no longer in the config (it would stay pending
 * forever), recording why. Returns what was given up, per channel.
 */
export async function expire(store: Store, channels: readonly OutboxChannel[], maxAgeHours: number, now: Date): Promise<ExpiredLine[]> {
  const cutoff = new Date(now.getTime() - maxAgeHours * 3_600_000).toISOString();
  const configured = channels.map((c) => c.id);
  return store.transaction(async () => {
    const rows = await store.all<{ channel: string; events: number; reason: string }>(
      `update _meta_alert_outbox
          set status = 'expired', finished_at = $now::timestamptz,
              expired_reason = case
                  when not list_contains($configured, channel) then 'the channel is no longer configured'
                  else 'not delivered within ' || $hours || ' h' || coalesce(' (last error: ' || last_error || ')', ' (never tried)')
              end
        where status = 'pending'
          and (queued_at < $cutoff::timestamptz or not list_contains($configured, channel))
        returning channel, 1 as events, expired_reason as reason`,
      { now: now.toISOString(), cutoff, hours: String(maxAgeHours), configured: listValue(configured.length > 0 ? configured : ['']) },
    );
    const byChannel = new Map<string, ExpiredLine>();
    for (const r of rows) {
      const line = byChannel.get(r.channel) ?? { channel: r.channel, events: 0, reason: r.reason };
      line.events += 1;
      byChannel.set(r.channel, line);
    }
    return [...byChannel.values()];
  });
}

// the outbox's columns are named as the event's JSON fields are; details is JSON text there
type EventRow = Pick<EventPayload, 'event_id' | 'alert_key' | 'event' | 'rule' | 'account' | 'severity' | 'level' | 'title' | 'message' | 'as_of' | 'created_at'> & {
  channel: string;
  details: string | null;
};

/** What each channel owes, oldest first. */
export async function pendingByChannel(store: Store): Promise<Map<string, AlertEvent[]>> {
  const rows = await store.all<EventRow>(
    `select o.event_id, o.channel, e.alert_key, e.event, e.rule, e.account, e.severity, e.level, e.title, e.message,
            strftime(e.as_of, '%Y-%m-%dT%H:%M:%S.%fZ') as as_of, strftime(e.created_at, '%Y-%m-%dT%H:%M:%S.%fZ') as created_at,
            e.details::varchar as details
       from _meta_alert_outbox as o
       join _meta_alert_events as e using (event_id)
      where o.status = 'pending'
      order by o.channel, o.queued_at, o.position`,
  );
  const owed = new Map<string, AlertEvent[]>();
  for (const r of rows) {
    const list = owed.get(r.channel) ?? [];
    list.push({
      eventId: r.event_id,
      event: r.event,
      key: r.alert_key,
      rule: r.rule,
      account: r.account,
      severity: r.severity,
      level: r.level,
      title: r.title,
      message: r.message,
      details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : {},
      asOf: new Date(r.as_of),
      createdAt: new Date(r.created_at),
    });
    owed.set(r.channel, list);
  }
  return owed;
}

/**
 * Fold settled deliveries (journal.ts) into the outbox and the last outcome per event in _meta_alert_deliveries.
 * Idempotent, because a run killed after committing this but before removing the journal folds the same entries
 * again: a sent row is not touched twice, and a failure counts only if it is newer than the row's last attempt.
 * A journal entry is the truth about a delivery, so "sent" also overrides a row expired in the meantime.
 */
export async function applyJournal(store: Store, entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await store.transaction(async () => {
    for (const e of entries) {
      if (e.status === 'sent') {
        const changed = await store.all(
          `update _meta_alert_outbox
              set status = 'sent', attempts = attempts + 1, last_attempt_at = $3::timestamptz, finished_at = $3::timestamptz,
                  last_error = null, expired_reason = null
            where event_id = $1 and channel = $2 and status <> 'sent'
        returning event_id`,
          [e.eventId, e.channel, e.at],
        );
        if (changed.length > 0) {
          await store.run(`insert or replace into _meta_alert_deliveries values ($1, $2, 'sent', 1, null, $3::timestamptz)`, [e.eventId, e.channel, e.at]);
        }
        continue;
      }
      const changed = await store.all(
        `update _meta_alert_outbox
            set attempts = attempts + $3, last_attempt_at = $4::timestamptz, last_error = $5,
                status = case when $6 then 'rejected' else status end,
                finished_at = case when $6 then $4::timestamptz else finished_at end,
                expired_reason = case when $6 then 'the receiver refused it: ' || $5 else expired_reason end
          where event_id = $1 and channel = $2 and status = 'pending'
            and (last_attempt_at is null or last_attempt_at < $4::timestamptz)
      returning event_id`,
        [e.eventId, e.channel, e.attempts, e.at, redact(e.error), e.permanent],
      );
      if (changed.length > 0) {
        await store.run(`insert or replace into _meta_alert_deliveries values ($1, $2, 'failed', $3, $4, $5::timestamptz)`, [
          e.eventId,
          e.channel,
          e.attempts,
          redact(e.error),
          e.at,
        ]);
      }
    }
  });
}

/** A line per channel that still owes something: how many, and since when. */
export async function pendingSummary(store: Store): Promise<PendingLine[]> {
  const rows = await store.all<{ channel: string; events: number; oldest: string }>(
    `select channel, count(*)::integer as events, strftime(min(queued_at), '%Y-%m-%dT%H:%M:%S.%fZ') as oldest
       from _meta_alert_outbox where status = 'pending' group by channel order by channel`,
  );
  return rows.map((r) => ({ channel: r.channel, events: r.events, oldest: new Date(r.oldest) }));
}
