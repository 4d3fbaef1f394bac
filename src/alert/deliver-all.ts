// Delivery, with no database held: every channel at once, each within its own time budget, so a dead webhook costs
// at most one budget and never holds up stdout, the file or the email. Each settled delivery goes to the journal
// (fsynced) before the channel starts its next one, so a run stopped or killed part-way has recorded everything a
// channel acknowledged. A channel that throws (a bug, or a journal that cannot be written) counts as having failed
// every event it had not settled yet.
import { errorMessage } from '../util/errors.ts';
import { redact } from '../util/secrets.ts';
import type { Logger } from '../util/log.ts';
import { stoppedReason, type Channel, type ChannelOutcome } from './channels/channel.ts';
import { entriesOf, type Journal } from './journal.ts';
import type { AlertEvent } from './types.ts';

export interface ChannelRun {
  channel: string;
  events: number;
  outcome: ChannelOutcome;
}

export interface DeliverAllOptions {
  simulated: ReadonlySet<string>;
  budgetMs: number;
  journal: Journal;
  /** Aborted by TERM/INT: deliveries in flight finish, nothing new starts. */
  stop: AbortSignal;
  log: Logger;
}

export async function deliverAll(channels: readonly Channel[], owed: ReadonlyMap<string, readonly AlertEvent[]>, options: DeliverAllOptions): Promise<ChannelRun[]> {
  const { journal, stop, log } = options;
  const runs = channels
    .filter((c) => (owed.get(c.id)?.length ?? 0) > 0)
    .map(async (channel): Promise<ChannelRun> => {
      const events = owed.get(channel.id)!;
      const settled = new Set<string>();
      const settle = async (part: Pick<ChannelOutcome, 'sent' | 'failed'>) => {
        const fresh = { sent: part.sent.filter((id) => !settled.has(id)), failed: part.failed.filter((f) => !settled.has(f.eventId)) };
        for (const id of [...fresh.sent, ...fresh.failed.map((f) => f.eventId)]) settled.add(id);
        await journal.append(entriesOf(channel.id, fresh));
      };
      let outcome: ChannelOutcome;
      if (stop.aborted) {
        outcome = { sent: [], failed: [], untried: events.map((e) => e.eventId), stopped: stoppedReason(stop) };
      } else {
        try {
          outcome = await channel.deliver(events, { simulated: options.simulated, deadline: Date.now() + options.budgetMs, stop, settle });
          // whole-batch channels (stdout, file) deliver once and leave settling to this
          await settle(outcome);
        } catch (e) {
          const error = redact(errorMessage(e));
          const journaled = journal.entries.filter((x) => x.channel === channel.id && settled.has(x.eventId));
          outcome = {
            sent: journaled.filter((x) => x.status === 'sent').map((x) => x.eventId),
            failed: [
              ...journaled.flatMap((x) => (x.status === 'failed' ? [{ eventId: x.eventId, attempts: x.attempts, error: x.error, permanent: x.permanent }] : [])),
              ...events.filter((x) => !settled.has(x.eventId)).map((x) => ({ eventId: x.eventId, attempts: 1, error })),
            ],
            untried: [],
          };
          await settle(outcome).catch(() => undefined); // the journal itself may be what failed: the run folds its memory
        }
      }
      if (outcome.stopped) log.warn(`channel ${channel.id} stopped for this run: ${outcome.stopped}; ${outcome.untried.length} event(s) wait for the next run`);
      return { channel: channel.id, events: events.length, outcome };
    });
  return Promise.all(runs);
}

/** What each channel delivered, and which failed and why, for the result and the log. */
export function summarizeRuns(runs: readonly ChannelRun[], stopped: boolean) {
  const delivered: { channel: string; events: number; attempts: number }[] = [];
  const failedChannels: { channel: string; error: string }[] = [];
  for (const r of runs) {
    const attempts = Math.max(0, ...r.outcome.failed.map((f) => f.attempts), r.outcome.sent.length > 0 ? 1 : 0);
    if (r.outcome.sent.length > 0) delivered.push({ channel: r.channel, events: r.outcome.sent.length, attempts });
    // a channel that only stopped because the run was told to (TERM, INT) did not fail: its events are owed
    if (r.outcome.failed.length === 0 && (r.outcome.untried.length === 0 || stopped)) continue;
    const first = r.outcome.failed[0];
    failedChannels.push({
      channel: r.channel,
      error:
        `${r.outcome.failed.length + r.outcome.untried.length} of ${r.events} event(s) not delivered` +
        (first ? `: ${first.error}` : '') +
        (r.outcome.stopped ? `; ${r.outcome.stopped}` : ''),
    });
  }
  return { delivered, failedChannels };
}
