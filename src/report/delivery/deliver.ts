// deliverReport: email a rendered workbook to the report's recipients. The delivery is recorded before the first
// send; transient SMTP failures (connection trouble, 4xx) are retried with doubling, bounded waits; a permanent
// refusal (5xx) ends it at once. A delivery that fails keeps the workbook on disk, keeps its record with the last
// error, and comes back as status 'failed' – the CLI exits 1 on it, the nightly `run` job decides for itself.
// The nightly job passes a time budget (a dead SMTP server must not add minutes of backoff to the run) and write
// sessions, so the database is held only while the record is written, never while the server is being reached.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { setTimeout as sleepMs } from 'node:timers/promises';
import type { Config } from '../../config/schema.ts';
import type { Store } from '../../store/database.ts';
import { heldSessions, type WriteSessions } from '../../store/shared-database.ts';
import { ConfigError, errorMessage } from '../../util/errors.ts';
import { silentLogger, type Logger } from '../../util/log.ts';
import { redact } from '../../util/secrets.ts';
import { prepareAttachment } from './attachment.ts';
import { startDelivery, updateDelivery, type DeliveryStatus } from './deliveries.ts';
import { attachmentLine, buildEmail, type AttachmentKind } from './email-content.ts';
import { createMailer, MailError, type Mailer } from '../../mail/index.ts';
import type { RenderedReport } from '../render.ts';

export interface DeliverReportOptions {
  /** Where the delivery is recorded: a store held open … */
  store?: Store;
  /** … or short writing sessions, one per record update (the nightly job). */
  sessions?: WriteSessions;
  /** No retry is started that would end after this many ms from now (default: no limit). */
  budgetMs?: number;
  config: Config;
  rendered: RenderedReport;
  /** The HTML page written beside the workbook: attached when reports.attachHtml (and small enough), else named. */
  html?: { path: string; bytes: number };
  /** Default: config reports.delivery.<report>.recipients. */
  recipients?: readonly string[];
  /** Default: createMailer(config.smtp). A given mailer is not closed. */
  mailer?: Mailer;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Wait between attempts (tests pass a fast one). */
  sleep?: (ms: number) => Promise<void>;
}

export interface DeliveryResult {
  deliveryId: string;
  report: string;
  period: string;
  /** The workbook, on disk whatever happened. */
  path: string;
  status: Exclude<DeliveryStatus, 'sending'>;
  attempts: number;
  recipients: string[];
  /** Recipients the server refused (status 'partial'). */
  rejected: string[];
  attachment: AttachmentKind;
  messageId: string | undefined;
  /** The last error (redacted), when not sent. */
  error: string | undefined;
}

/** The HTML report's place in the email: attached (self-contained, it opens offline), or named with its path. */
function htmlAttachment(html: DeliverReportOptions['html'], attach: boolean, attachUpToMb: number) {
  if (!html) return undefined;
  const file = basename(html.path);
  if (attach && html.bytes <= attachUpToMb * 1e6) {
    return { line: `The same report as one web page, ${file}, is attached (open it in any browser).`, attachment: { filename: file, content: readFileSync(html.path), contentType: 'text/html; charset=utf-8' } };
  }
  return { line: `The same report as one web page is at ${html.path} on ${hostname()}.`, attachment: undefined };
}

/** Doubling waits, bounded: retryDelaySeconds, ×2, ×4 … up to maxRetryDelaySeconds. */
export function retryDelayMs(attempt: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** (attempt - 1)) * 1000;
}

/** Configuration errors of a delivery (exit 2), checkable before anything is rendered. */
export function checkDeliveryConfig(config: Config, report: string, recipients?: readonly string[], hasMailer = false): string[] {
  const list = [...(recipients ?? config.reports.delivery[report]?.recipients ?? [])];
  if (list.length === 0) throw new ConfigError(`no recipients for report '${report}': set reports.delivery.${report}.recipients in the config`);
  if (!hasMailer && !config.smtp) throw new ConfigError('smtp is not configured: add an "smtp" section (host, port, from) to the config');
  return list;
}

export async function deliverReport(options: DeliverReportOptions): Promise<DeliveryResult> {
  const { config, rendered } = options;
  const sessions = options.sessions ?? (options.store ? heldSessions(options.store) : undefined);
  if (!sessions) throw new Error('deliverReport needs sessions or a store');
  const deadline = options.budgetMs === undefined ? Infinity : Date.now() + options.budgetMs;
  const log = (options.logger ?? silentLogger).child('email');
  const report = rendered.summary.report;
  const delivery = config.reports.delivery[report];
  const recipients = checkDeliveryConfig(config, report, options.recipients, options.mailer !== undefined);
  const mailer = options.mailer ?? createMailer(config.smtp!, { env: options.env, logger: options.logger });
  const limits = config.reports.email;
  const sleep = options.sleep ?? ((ms: number) => sleepMs(ms));

  try {
    const prepared = prepareAttachment(rendered.path, rendered.bytes, limits);
    const page = htmlAttachment(options.html, config.reports.attachHtml, limits.attachUpToMb);
    const line = attachmentLine(rendered, prepared.kind) + (page ? ` ${page.line}` : '');
    const email = buildEmail(rendered, line, delivery?.subject);
    const record = await sessions.write((store) => startDelivery(store, {
      report,
      period: rendered.summary.period.label,
      path: rendered.path,
      bytes: rendered.bytes,
      recipients,
      attachment: prepared.kind,
    }), { publish: false });
    const result = (status: DeliveryResult['status'], attempts: number, extra: Partial<DeliveryResult>): DeliveryResult => ({
      deliveryId: record.deliveryId,
      report,
      period: record.period,
      path: rendered.path,
      status,
      attempts,
      recipients,
      rejected: [],
      attachment: prepared.kind,
      messageId: undefined,
      error: undefined,
      ...extra,
    });

    let lastError = '';
    for (let attempt = 1; attempt <= limits.attempts; attempt++) {
      try {
        const sent = await mailer.send({
          to: recipients,
          subject: email.subject,
          text: email.text,
          html: email.html,
          attachments: [...email.inline, ...(prepared.attachment ? [prepared.attachment] : []), ...(page?.attachment ? [page.attachment] : [])],
        });
        if (sent.rejected.length > 0) {
          const error = `the server refused ${sent.rejected.join(', ')} (delivered to ${sent.accepted.join(', ')})`;
          await sessions.write((store) => updateDelivery(store, record.deliveryId, { attempts: attempt, status: 'partial', lastError: error, messageId: sent.messageId }));
          log.error(`${report} ${record.period}: ${error}`);
          return result('partial', attempt, { rejected: sent.rejected, messageId: sent.messageId, error });
        }
        await sessions.write((store) => updateDelivery(store, record.deliveryId, { attempts: attempt, status: 'sent', messageId: sent.messageId }));
        log.info(`${report} ${record.period}: sent to ${recipients.join(', ')} (${prepared.kind === 'none' ? 'path in body' : prepared.kind})`);
        return result('sent', attempt, { messageId: sent.messageId });
      } catch (e) {
        lastError = redact(errorMessage(e));
        const permanent = !(e instanceof MailError) || e.permanent;
        const wait = retryDelayMs(attempt, limits.retryDelaySeconds, limits.maxRetryDelaySeconds);
        const inBudget = Date.now() + wait < deadline;
        const more = !permanent && attempt < limits.attempts && inBudget;
        if (!permanent && attempt < limits.attempts && !inBudget) lastError += ` (no retry: the next would end after the ${Math.round(options.budgetMs! / 1000)} s budget)`;
        await sessions.write((store) => updateDelivery(store, record.deliveryId, { attempts: attempt, status: more ? 'sending' : 'failed', lastError }), { publish: !more });
        if (!more) break;
        log.warn(`${report} ${record.period}: attempt ${attempt} of ${limits.attempts} failed (${lastError}); retrying in ${wait / 1000} s`);
        await sleep(wait);
      }
    }
    log.error(`${report} ${record.period}: not delivered (${lastError}); the workbook stays at ${rendered.path}`);
    const attempts = (await sessions.write((store) => store.one<{ attempts: number }>('select attempts from _meta_report_deliveries where delivery_id = $1', [record.deliveryId])))?.attempts ?? 0;
    return result('failed', attempts, { error: lastError });
  } finally {
    if (!options.mailer) mailer.close();
  }
}
