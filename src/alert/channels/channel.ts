// A channel takes the events it owes, oldest first, and says for each whether it got there. Retrying within a run
// is the channel's own business (a webhook retries a 5xx, stdout has nothing to retry), bounded by the run's
// deadline; what it did not get to, or gave up on, stays in the outbox for the next run (outbox.ts).
import type { Severity } from '../../config/alerts.ts';
import type { AlertEvent } from '../types.ts';

export interface DeliveryContext {
  /** Accounts whose data comes from the simulator. */
  simulated: ReadonlySet<string>;
  /** Epoch ms by which this channel must be done for this run (alerts.outbox.budgetSeconds). */
  deadline: number;
}

export interface ChannelOutcome {
  sent: string[];
  /** Tried and not taken, with the tries it took and why; permanent: the receiver refused it (a 4xx), so it is not retried. */
  failed: { eventId: string; attempts: number; error: string; permanent?: boolean }[];
  /** Not tried this run: the breaker opened or the time budget ran out. */
  untried: string[];
  /** Why the channel stopped early, when it did. */
  stopped?: string;
}

export interface Channel {
  /** stdout | file:<path> | webhook:<name> | email – the name in logs, _meta_alert_outbox and _meta_alert_deliveries. */
  id: string;
  minSeverity: Severity;
  deliver(events: readonly AlertEvent[], context: DeliveryContext): Promise<ChannelOutcome>;
  close?(): void;
}

/** A channel that takes a batch whole or not at all (stdout, file, email). */
export function wholeBatch(events: readonly AlertEvent[], error?: string, attempts = 1, stopped?: string): ChannelOutcome {
  const ids = events.map((e) => e.eventId);
  return error === undefined
    ? { sent: ids, failed: [], untried: [] }
    : { sent: [], failed: ids.map((eventId) => ({ eventId, attempts, error })), untried: [], ...(stopped ? { stopped } : {}) };
}

const REFUSED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether an error says nobody is listening (refused, no such host): the circuit breaker opens at once, because
 * the next event would meet the same closed door.
 */
export function isConnectionRefusal(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  const err = e as { code?: unknown; cause?: unknown; errors?: unknown; message?: unknown };
  if (typeof err.code === 'string' && REFUSED.has(err.code)) return true;
  // nodemailer replaces the code with its own (ESOCKET) and keeps the system's in the text
  if (typeof err.message === 'string' && /\b(ECONNREFUSED|ENOTFOUND)\b/.test(err.message)) return true;
  if (Array.isArray(err.errors) && err.errors.some((x) => isConnectionRefusal(x, depth + 1))) return true;
  return isConnectionRefusal(err.cause, depth + 1);
}

export const isSimulated = (e: AlertEvent, context: Pick<DeliveryContext, 'simulated'>) => context.simulated.has(e.account);
