// The alert email's HTML body (issue 27 §1: written with src/present like every page): a title or message from the
// data – a resource, endpoint or budget name – arrives as text, never as markup, through a real SMTP server.
import { describe, expect, it } from 'vitest';
import { emailChannel } from '../../src/alert/channels/email.ts';
import type { AlertEvent } from '../../src/alert/types.ts';
import { smtpConfigSchema } from '../../src/config/smtp.ts';
import { createMailer } from '../../src/mail/index.ts';
import { flatten, parseMime, startSmtp } from '../helpers/smtp.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const hostile = `<img src=x onerror="alert(1)">'&`;

describe('the alert email body', () => {
  const smtp = suiteFixture(() => startSmtp());

  it('keeps titles and messages from the data as text', async () => {
    const mailer = createMailer(smtpConfigSchema.parse({ host: '127.0.0.1', port: smtp.port, from: 'gpuledger <alerts@example.com>' }));
    const at = new Date('2026-11-20T12:00:00Z');
    const event: AlertEvent = { eventId: 'e1', event: 'fired', key: 'budget:x', rule: 'budget', account: 'a', severity: 'critical', level: 1, title: `Budget ${hostile}`, message: `over by $3 ${hostile}`, details: {}, asOf: at, createdAt: at };
    const outcome = await emailChannel(mailer, ['oncall@example.com'], 'info').deliver([event], { simulated: new Set(), deadline: Date.now() + 30_000, stop: new AbortController().signal, settle: async () => {} });
    expect(outcome.sent).toEqual(['e1']);
    const html = flatten(parseMime(smtp.received.at(-1)!.raw)).find((p) => p.contentType.startsWith('text/html'))!.body.toString();
    expect(html).not.toContain('<img');
    expect(html).toContain('Budget &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;</b><br>over by $3 &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;</li>');
  });
});
