// Delivery, with no database held: every channel at once, each within its own time budget, so a dead webhook costs
// at most one budget and never holds up stdout, the file or the email. A channel that throws (a bug, not a refusal)
// counts as having failed every event it was given.
import { errorMessage } from '../util/errors.ts';
import { redact } from '../util/secrets.ts';
import type { Logger } from '../util/log.ts';
import type { Channel, ChannelOutcome } from './channels/channel.ts';
import type { AlertEvent } from './types.ts';

export interface ChannelRun {
  channel: string;
  events: number;
  outcome: ChannelOutcome;
}

export async function deliverAll(
  channels: readonly Channel[],
  owed: ReadonlyMap<string, readonly AlertEvent[]>,
  simulated: ReadonlySet<string>,
  budgetMs: number,
  log: Logger,
): Promise<ChannelRun[]> {
  const runs = channels
    .filter((c) => (owed.get(c.id)?.length ?? 0) > 0)
    .map(async (channel): Promise<ChannelRun> => {
      const events = owed.get(channel.id)!;
      let outcome: ChannelOutcome;
      try {
        outcome = await channel.deliver(events, { simulated, deadline: Date.now() + budgetMs });
      } catch (e) {
        const error = redact(errorMessage(e));
        outcome = { sent: [], failed: events.map((x) => ({ eventId: x.eventId, attempts: 1, error })), untried: [] };
      }
      if (outcome.stopped) log.warn(`channel ${channel.id} stopped for this run: ${outcome.stopped}; ${outcome.untried.length} event(s) wait for the next run`);
      return { channel: channel.id, events: events.length, outcome };
    });
  return Promise.all(runs);
}
