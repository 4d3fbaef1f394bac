// A channel takes the events it owes, oldest first, and says for each whether it got there. Retrying within a run
// is the channel's own business (a webhook retries a 5xx, stdout has nothing to retry), bounded by the run's
// deadline; what it did not get to, or gave up on, stays in the outbox for the next run (outbox.ts).
// A channel that delivers more than once per run (a webhook: a POST per event; email: a message per evaluation)
// settles each delivery before it starts the next, so a run stopped or killed in between never loses an
// acknowledgement (journal.ts), and it starts nothing new once the run is told to stop (TERM, INT).
import type { Severity } from '../../config/alerts.ts';
import type { AlertEvent } from '../types.ts';

export interface DeliveryContext {
  /** Accounts whose data comes from the simulator. */
  simulated: ReadonlySet<string>;
  /** Epoch ms by which this channel must be done for this run (alerts.outbox.budgetSeconds). */
  deadline: number;
  /** Aborted when the run is told to stop (TERM, INT): the delivery in flight finishes, no new one starts. */
  stop: AbortSignal;
  /** Record what one delivery settled; resolves once it is durable. Await it before starting the next delivery. */
  settle(part: ChannelOutcome): Promise<void>;
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

/** What a stopped run says about the events it did not try ("the run was stopped (SIGTERM)"). */
export function stoppedReason(stop: AbortSignal): string {
  return `the run was stopped${typeof stop.reason === 'string' ? ` (${stop.reason})` : ''}`;
}

/** A channel that takes a batch whole or not at all (stdout, file, one email message). */
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
