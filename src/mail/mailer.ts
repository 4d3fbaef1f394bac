// SMTP sending, shared by report delivery and the alerts email channel: one nodemailer transport built from the
// `smtp` config section. The password is read from the env var the config names (readSecretEnv registers it, so
// redact() masks it); it is handed to nodemailer and nowhere else – never into a message, log or error.
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../config/smtp.ts';
import { ConfigError, EXIT, GpuledgerError } from '../util/errors.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { readSecretEnv, redact } from '../util/secrets.ts';

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType?: string;
  /** Content-ID for an inline image referenced from the HTML as `cid:<cid>`. */
  cid?: string;
}

export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: readonly MailAttachment[];
  /** A Message-ID of our own (without <>), so a message sent again can be recognised as the same one. */
  messageId?: string;
  /** Extra headers (X-…), e.g. an idempotency key. */
  headers?: Readonly<Record<string, string>>;
}

export interface SentMail {
  messageId: string;
  accepted: string[];
  /** Recipients the server refused while accepting others (all refused is a MailError). */
  rejected: string[];
}

export interface Mailer {
  readonly from: string;
  send(message: MailMessage): Promise<SentMail>;
  /** Connect, greet and authenticate without sending. */
  verify(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}

/** A message the SMTP server did not take. `permanent` says whether sending it again can help. */
export class MailError extends GpuledgerError {
  readonly permanent: boolean;
  readonly responseCode: number | undefined;
  constructor(message: string, permanent: boolean, responseCode: number | undefined, options?: { cause?: unknown }) {
    super('mail', message, EXIT.failure, { cause: options?.cause, context: { permanent, responseCode } });
    this.permanent = permanent;
    this.responseCode = responseCode;
  }
}

interface SmtpErrorLike {
  message?: string;
  code?: string;
  responseCode?: number;
  permanent?: boolean;
  command?: string;
}

/**
 * RFC 5321: 5yz replies are permanent (503 excepted, nodemailer sets `permanent`); errors without a reply are
 * connection trouble (worth retrying) unless they are about our own setup (credentials, configuration).
 */
function toMailError(e: unknown, host: string): MailError {
  const err = (e ?? {}) as SmtpErrorLike;
  const permanent =
    err.permanent ?? (err.code === 'ENOAUTH' || err.code === 'ECONFIG' || err.code === 'EENVELOPE' || err.code === 'EAUTH');
  const what = err.command ? ` (${err.command})` : '';
  const text = (err.message ?? String(e)).split('\n')[0]!;
  return new MailError(redact(`SMTP ${host}${what}: ${text}`), permanent, err.responseCode, { cause: e });
}

export function createMailer(smtp: SmtpConfig, options: MailerOptions = {}): Mailer {
  const log = (options.logger ?? silentLogger).child('smtp');
  let auth: { user: string; pass: string } | undefined;
  if (smtp.user !== undefined) {
    const pass = readSecretEnv(smtp.passwordEnv, options.env ?? process.env);
    if (pass === undefined) {
      throw new ConfigError(
        `smtp.user is set but the environment variable ${smtp.passwordEnv} (smtp.passwordEnv) is empty; export the SMTP password there`,
      );
    }
    auth = { user: smtp.user, pass };
  }
  const timeoutMs = smtp.timeoutSeconds * 1000;
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    tls: { rejectUnauthorized: smtp.rejectUnauthorized },
    ...(auth ? { auth } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // attachments are buffers we built; never let a message read local files or URLs
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
    debug: false,
  });
  return {
    from: smtp.from,
    async send(message) {
      log.debug(`sending "${message.subject}" to ${message.to.join(', ')} via ${smtp.host}:${smtp.port}`);
      try {
        const info = await transport.sendMail({
          from: smtp.from,
          to: [...message.to],
          subject: message.subject,
          text: message.text,
          ...(message.html !== undefined ? { html: message.html } : {}),
          attachments: (message.attachments ?? []).map((a) => ({ ...a })),
          ...(message.messageId !== undefined ? { messageId: `<${message.messageId}>` } : {}),
          ...(message.headers !== undefined ? { headers: { ...message.headers } } : {}),
        });
        const list = (v: unknown): string[] =>
          Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String((x as { address?: string }).address ?? x))) : [];
        return { messageId: String(info.messageId ?? ''), accepted: list(info.accepted), rejected: list(info.rejected) };
      } catch (e) {
        throw toMailError(e, smtp.host);
      }
    },
    async verify() {
      try {
        await transport.verify();
      } catch (e) {
        throw toMailError(e, smtp.host);
      }
    },
    close() {
      transport.close();
    },
  };
}
