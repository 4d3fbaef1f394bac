// The one JSON shape of an alert event, shared by the NDJSON file and the generic webhook, and its one-line text
// form for stdout and email. Simulated accounts are labelled, so a demo alert is never mistaken for a real one.
import { VERSION } from '../version.ts';
import type { AlertEvent } from './types.ts';

export interface EventPayload {
  source: 'gpuledger';
  version: string;
  event_id: string;
  /** The same for every retry of this event to a channel: receivers drop a key they have seen (the event id). */
  idempotency_key: string;
  event: AlertEvent['event'];
  alert_key: string;
  rule: AlertEvent['rule'];
  account: string;
  simulated: boolean;
  severity: AlertEvent['severity'];
  level: number;
  title: string;
  message: string;
  as_of: string;
  created_at: string;
  details: Record<string, unknown>;
}

export function eventPayload(e: AlertEvent, simulated: boolean): EventPayload {
  return {
    source: 'gpuledger',
    version: VERSION,
    event_id: e.eventId,
    idempotency_key: e.eventId,
    event: e.event,
    alert_key: e.key,
    rule: e.rule,
    account: e.account,
    simulated,
    severity: e.severity,
    level: e.level,
    title: e.title,
    message: e.message,
    as_of: e.asOf.toISOString(),
    created_at: e.createdAt.toISOString(),
    details: e.details,
  };
}

const EVENT_WORD: Record<AlertEvent['event'], string> = { fired: 'ALERT', escalated: 'WORSE', resolved: 'RESOLVED' };

export function eventLine(e: AlertEvent, simulated: boolean): string {
  return `${EVENT_WORD[e.event].padEnd(8)} ${e.severity.padEnd(8)} ${simulated ? '[SIMULATED] ' : ''}${e.title}`;
}
