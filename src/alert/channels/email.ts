// Email: one message per run with every event of the batch, worst first, through the report issue's SMTP settings.
import type { Severity } from '../../config/alerts.ts';
import { escapeHtml, type Mailer } from '../../mail/index.ts';
import { eventLine } from '../payload.ts';
import { SEVERITY_RANK } from '../types.ts';
import { ChannelError, isSimulated, type Channel } from './channel.ts';

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
      try {
        await mailer.send({ to, subject, text, html });
      } catch (e) {
        throw new ChannelError((e as Error).message, 1);
      }
      return { attempts: 1 };
    },
    close: () => mailer.close(),
  };
}
