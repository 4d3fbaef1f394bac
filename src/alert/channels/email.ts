// Email: one message with every event the channel owes (a backlog after an outage is one message, not forty),
// worst first, through the report issue's SMTP settings. The Message-ID is derived from the event ids and the ids
// are listed in X-Gpuledger-Event-Ids, so a message sent twice (the outcome lost in a crash) is recognisably the same.
import { createHash } from 'node:crypto';
import type { Severity } from '../../config/alerts.ts';
import { escapeHtml, type Mailer } from '../../mail/index.ts';
import { redact } from '../../util/secrets.ts';
import { eventLine } from '../payload.ts';
import { SEVERITY_RANK } from '../types.ts';
import { isConnectionRefusal, isSimulated, wholeBatch, type Channel } from './channel.ts';

export function emailChannel(mailer: Mailer, to: readonly string[], minSeverity: Severity): Channel {
  return {
    id: 'email',
    minSeverity,
    async deliver(events, context) {
      const sorted = [...events].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
      const simulated = sorted.some((e) => isSimulated(e, context));
      const fired = sorted.filter((e) => e.event !== 'resolved').length;
      const resolved = sorted.length - fired;
      const subject =
        `${simulated ? '[SIMULATED DATA] ' : ''}gpuledger: ` +
        [fired > 0 ? `${fired} alert${fired === 1 ? '' : 's'}` : '', resolved > 0 ? `${resolved} resolved` : ''].filter(Boolean).join(', ') +
        (sorted[0] ? ` – ${sorted[0].title}` : '');
      const text = sorted.map((e) => `${eventLine(e, isSimulated(e, context))}\n  ${e.message}\n`).join('\n');
      const html =
        `<ul>` +
        sorted
          .map((e) => `<li><b>${escapeHtml(eventLine(e, isSimulated(e, context)).trim())}</b><br>${escapeHtml(e.message)}</li>`)
          .join('') +
        `</ul>`;
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
          mailer.send({ to, subject, text, html, messageId: `alerts-${key}@gpuledger`, headers: { 'X-Gpuledger-Idempotency-Key': key, 'X-Gpuledger-Event-Ids': ids.join(', ') } }),
          timeout,
        ]);
      } catch (e) {
        const refused = isConnectionRefusal(e);
        return wholeBatch(events, redact((e as Error).message), 1, refused ? 'connection refused' : undefined);
      } finally {
        clearTimeout(timer);
      }
      return wholeBatch(events);
    },
    close: () => mailer.close(),
  };
}
