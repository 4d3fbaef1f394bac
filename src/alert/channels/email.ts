// Email: one message per evaluation that still owes this channel events (a run's alerts arrive together, worst
// first), through the report issue's SMTP settings. The Message-ID is derived from the message's event ids and the
// ids are listed in X-Gpuledger-Event-Ids, so a message sent again (its acknowledgement lost to a kill) is
// recognisably the same one. That only holds if a retry carries exactly the same events: grouping by evaluation
// guarantees it, because an evaluation's rows for this channel are queued together and leave the outbox together
// (sent, expired at the same age, or rejected as one message) – a backlog from several failed runs therefore goes
// out as one message per run rather than one message whose id would change with every run that adds to it.
// Each message is settled (journal.ts) before the next is sent; once the run is told to stop, none is started.
import { createHash } from 'node:crypto';
import type { Severity } from '../../config/alerts.ts';
import type { Mailer } from '../../mail/index.ts';
import { html } from '../../present/index.ts';
import { redact } from '../../util/secrets.ts';
import { visibleText } from '../../util/visible-text.ts';
import { eventLine } from '../payload.ts';
import { SEVERITY_RANK, type AlertEvent } from '../types.ts';
import { isConnectionRefusal, isSimulated, stoppedReason, wholeBatch, type Channel, type ChannelOutcome, type DeliveryContext } from './channel.ts';

/** The events of each evaluation (they share created_at, which is their outbox queued_at), oldest first. */
export function byEvaluation(events: readonly AlertEvent[]): AlertEvent[][] {
  const groups = new Map<number, AlertEvent[]>();
  for (const e of events) groups.set(e.createdAt.getTime(), [...(groups.get(e.createdAt.getTime()) ?? []), e]);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, group]) => group);
}

async function sendOne(mailer: Mailer, to: readonly string[], events: readonly AlertEvent[], context: DeliveryContext): Promise<ChannelOutcome> {
  const sorted = [...events].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
  const simulated = sorted.some((e) => isSimulated(e, context));
  const fired = sorted.filter((e) => e.event !== 'resolved').length;
  const resolved = sorted.length - fired;
  // titles and messages are escaped when a rule fires (evaluate.ts); escaped again here – it changes nothing then –
  // for an event stored before that, so the plain text never carries a name's raw CR/LF or U+202E
  const subject =
    `${simulated ? '[SIMULATED DATA] ' : ''}gpuledger: ` +
    [fired > 0 ? `${fired} alert${fired === 1 ? '' : 's'}` : '', resolved > 0 ? `${resolved} resolved` : ''].filter(Boolean).join(', ') +
    (sorted[0] ? ` – ${visibleText(sorted[0].title)}` : '');
  const text = sorted.map((e) => `${visibleText(eventLine(e, isSimulated(e, context)))}\n  ${visibleText(e.message)}\n`).join('\n');
  const body = html`<ul>${sorted.map((e) => html`<li><b>${eventLine(e, isSimulated(e, context)).trim()}</b><br>${e.message}</li>`)}</ul>`.text;
  const ids = events.map((e) => e.eventId);
  const key = createHash('sha256').update([...ids].sort().join(',')).digest('hex').slice(0, 32);
  const remaining = context.deadline - Date.now();
  if (remaining <= 0) return { sent: [], failed: [], untried: ids, stopped: 'time budget spent' };
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within the channel's time budget (${Math.ceil(remaining / 1000)} s)`)), remaining);
    });
    await Promise.race([
      mailer.send({ to, subject, text, html: body, messageId: `alerts-${key}@gpuledger`, headers: { 'X-Gpuledger-Idempotency-Key': key, 'X-Gpuledger-Event-Ids': ids.join(', ') } }),
      timeout,
    ]);
  } catch (e) {
    const refused = isConnectionRefusal(e);
    return wholeBatch(events, redact((e as Error).message), 1, refused ? 'connection refused' : undefined);
  } finally {
    clearTimeout(timer);
  }
  return wholeBatch(events);
}

export function emailChannel(mailer: Mailer, to: readonly string[], minSeverity: Severity): Channel {
  return {
    id: 'email',
    minSeverity,
    async deliver(events, context) {
      const outcome: ChannelOutcome = { sent: [], failed: [], untried: [] };
      const groups = byEvaluation(events);
      for (const [i, group] of groups.entries()) {
        const rest = () => groups.slice(i).flatMap((g) => g.map((e) => e.eventId));
        if (context.stop.aborted) return { ...outcome, untried: rest(), stopped: stoppedReason(context.stop) };
        const one = await sendOne(mailer, to, group, context);
        if (one.untried.length > 0) return { ...outcome, untried: rest(), stopped: one.stopped };
        await context.settle(one);
        outcome.sent.push(...one.sent);
        outcome.failed.push(...one.failed);
        if (one.stopped) return { ...outcome, untried: rest().slice(group.length), stopped: one.stopped };
      }
      return outcome;
    },
    close: () => mailer.close(),
  };
}
