// A channel takes a batch of events and gets them somewhere, or throws an error saying why not. Retrying is the
// channel's own business (a webhook retries, stdout has nothing to retry); `attempts` says how many tries it took.
import type { Severity } from '../../config/alerts.ts';
import type { AlertEvent } from '../types.ts';

export interface DeliveryContext {
  /** Accounts whose data comes from the simulator. */
  simulated: ReadonlySet<string>;
}

export interface Channel {
  /** stdout | file:<path> | webhook:<name> | email – the name in logs and in _meta_alert_deliveries. */
  id: string;
  minSeverity: Severity;
  deliver(events: readonly AlertEvent[], context: DeliveryContext): Promise<{ attempts: number }>;
  close?(): void;
}

/** A delivery that failed after `attempts` tries. */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    /** Events that did not get through, when some did; all of them otherwise. */
    readonly failedEventIds?: readonly string[],
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

export const isSimulated = (e: AlertEvent, context: DeliveryContext) => context.simulated.has(e.account);
