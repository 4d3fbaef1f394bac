// A real SMTP server on 127.0.0.1 (smtp-server, port 0) for the email tests, and a small MIME reader for what it
// received (multipart nesting, base64 and quoted-printable bodies) – enough to compare an attachment byte for byte.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMail[];
  /** Every AUTH attempt's password, to check what the client sent. */
  passwords: string[];
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  user?: string;
  password?: string;
  /** Answer RCPT TO for these addresses with 550. */
  rejectRecipients?: string[];
  /** Fail DATA with 421 this many times before accepting. */
  failDataTimes?: number;
}

export async function startSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const passwords: string[] = [];
  let dataFailures = 0;
  const config: SMTPServerOptions = {
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: options.user === undefined,
    logger: false,
    size: 100 * 1024 * 1024,
    onAuth(auth, _session, cb) {
      passwords.push(auth.password ?? '');
      if (auth.username === options.user && auth.password === options.password) cb(null, { user: auth.username });
      else cb(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      if (options.rejectRecipients?.includes(address.address)) {
        cb(Object.assign(new Error(`mailbox ${address.address} unavailable`), { responseCode: 550 }));
      } else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (dataFailures < (options.failDataTimes ?? 0)) {
          dataFailures += 1;
          cb(Object.assign(new Error('try again later'), { responseCode: 421 }));
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        cb();
      });
    },
  };
  const server = new SMTPServer(config);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, passwords, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface MimePart {
  headers: Record<string, string>;
  contentType: string;
  body: Buffer;
  parts: MimePart[];
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

function decodeQp(s: string): Buffer {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

export function parseMime(raw: Buffer | string): MimePart {
  const text = typeof raw === 'string' ? raw : raw.toString('latin1');
  const split = text.search(/\r?\n\r?\n/);
  const headers = parseHeaders(text.slice(0, split));
  const bodyText = text.slice(split).replace(/^\r?\n\r?\n/, '');
  const contentType = (headers['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (contentType.startsWith('multipart/') && boundary) {
    const pieces = bodyText.split(`--${boundary}`).slice(1);
    const parts = pieces.filter((p) => !p.startsWith('--')).map((p) => parseMime(p.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
    return { headers, contentType, body: Buffer.alloc(0), parts };
  }
  const enc = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const body =
    enc === 'base64' ? Buffer.from(bodyText.replace(/\s+/g, ''), 'base64') : enc === 'quoted-printable' ? decodeQp(bodyText) : Buffer.from(bodyText, 'latin1');
  return { headers, contentType, body, parts: [] };
}

export function flatten(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(flatten);
}
