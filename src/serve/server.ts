// `gpuledger serve`: a read-only web app over the published database. Pages read it through a store reopened when a
// new file is published (published-reader.ts), so new data shows up without a restart and no writer ever waits for
// it. GET and HEAD only; nothing writes. It answers only requests addressed to its own names and sent from its own
// pages or none (request-guard.ts: DNS rebinding, cross-site requests). Loopback by default; any other address needs
// a token from the environment (GPULEDGER_SERVE_TOKEN, token-guard.ts), sent as `Authorization: Bearer` or once as
// ?token= (then kept in a same-site cookie). Every answer carries the page's Content-Security-Policy.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/schema.ts';
import { DatabaseMissingError } from '../query/open-database.ts';
import { contentSecurityPolicy } from '../present/index.ts';
import { errorMessage, UsageError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { defaultPages } from './default-pages.ts';
import { missingDatabaseAnswer } from './missing-database.ts';
import { pageWarmer, type WarmUp } from './page-warmer.ts';
import { answerCache, publishedReader } from './published-reader.ts';
import { parseAllowedHost, requestGuard } from './request-guard.ts';
import { errorAnswer, route, viewCsvQuery, type Reply } from './routes.ts';
import { SQL_TIME_LIMIT_MS, sqlAnswerer } from './sql-answer.ts';
import { checkToken, TOKEN_COOKIE, TOKEN_ENV, tokenGuard, tokensOf, type ThrottleOptions } from './token-guard.ts';

export interface ServeOptions {
  dbPath: string;
  config: Config;
  host: string;
  port: number;
  /** Required unless host is a loopback address; 32 characters or more. */
  token?: string;
  /** Names besides its own address that serve answers to (--allow-host): a name, or name:port. */
  allowHosts?: string[];
  /** The longest a SQL page or CSV may take (default SQL_TIME_LIMIT_MS). */
  sqlTimeLimitMs?: number;
  /** The longest any other page may take (default PAGE_TIME_LIMIT_MS, published-reader.ts). */
  pageTimeLimitMs?: number;
  /** How wrong tokens are slowed (tests shorten the waits). */
  throttle?: ThrottleOptions;
  /** Keep answers per published file and URL (default true; the benchmark measures pages without it too). */
  cacheAnswers?: boolean;
  /** Compute the default pages (default-pages.ts) whenever a new file is published (default: when answers are kept). */
  warmPages?: boolean;
  log: Logger;
}

export interface RunningServer {
  url: string;
  /** What guards the pages, for the start line (protectionText). */
  protection: string;
  server: Server;
  /** The default pages of the file published now, once computed (tests and the benchmark wait for it). */
  warmed(): Promise<WarmUp | undefined>;
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The protection in force, as the start line says it: a token set in the environment is required on every address,
 * loopback included (tokenGuard checks every request whenever there is one), so "loopback only" is said only when
 * nothing else guards the pages.
 */
export function protectionText(host: string, token: string | undefined): string {
  if (token !== undefined) return `token required on ${host}: every request sends the token in ${TOKEN_ENV}`;
  return 'loopback only';
}

const HEADERS = {
  'Content-Security-Policy': contentSecurityPolicy("'self'"),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

function send(res: ServerResponse, req: IncomingMessage, reply: Reply): void {
  const body = Buffer.from(reply.body);
  res.writeHead(reply.status, { ...HEADERS, 'Content-Type': reply.type, 'Content-Length': String(body.length), ...(reply.headers ?? {}) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * The answers that run a query in the sandbox and may stream (sql-answer.ts), by path: the SQL page and its CSV, and
 * a view's CSV (its own statement). Every other page is in routes.ts's table.
 */
const STREAMED: ReadonlyArray<{ pattern: RegExp; fixed?: (match: RegExpExecArray) => { sql: string; filename: string } }> = [
  { pattern: /^\/sql(\.csv)?$/ },
  { pattern: /^\/view\/([A-Za-z_][A-Za-z0-9_]*)\.csv$/, fixed: ([, name]) => viewCsvQuery(name!) },
];

export async function startServe(options: ServeOptions): Promise<RunningServer> {
  if (!isLoopback(options.host) && !options.token) {
    throw new UsageError(`serving on ${options.host} (not loopback) needs a token: set ${TOKEN_ENV} (requests then send Authorization: Bearer <token>, or open /?token=<token> once)`);
  }
  if (options.token !== undefined) checkToken(options.token);
  const allowHosts = options.allowHosts ?? [];
  allowHosts.forEach(parseAllowedHost); // a bad name is said at start, not on every request
  const tokens = options.token === undefined ? undefined : tokenGuard(options.token, options.throttle);
  const reader = publishedReader(options.dbPath, options.config.allocation, { timeLimitMs: options.pageTimeLimitMs }, options.config.alerts.budgets);
  const cache = answerCache<Reply>(options.cacheAnswers === false ? 0 : undefined);
  const keepsAnswers = options.cacheAnswers !== false;
  const pages = pageWarmer<Reply>({
    identity: reader.identity,
    compute: (url, warming) => route(url, { reader, cache, config: options.config, unbounded: warming }),
    // a page computed ahead is kept in the answer cache: without one there is nowhere to keep it
    pages: (options.warmPages ?? keepsAnswers) && keepsAnswers ? defaultPages(options.config) : [],
    log: options.log,
  });
  const sql = sqlAnswerer({ dbPath: options.dbPath, config: options.config, timeLimitMs: options.sqlTimeLimitMs ?? SQL_TIME_LIMIT_MS });
  // the port is known once listening (--port 0)
  let guard: ReturnType<typeof requestGuard> = () => ({ status: 421, message: 'gpuledger serve is starting' });
  const server = createServer((req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://gpuledger.local');
    const done = (reply: Reply) => {
      send(res, req, reply);
      options.log.debug(`${req.method} ${url.pathname} ${reply.status} ${Date.now() - started} ms`);
    };
    const refused = guard(req.headers);
    if (refused) return done({ status: refused.status, type: TEXT, body: `${refused.message}\n` });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return done({ status: 405, type: TEXT, body: `${req.method} is not allowed: gpuledger serve only reads (GET, HEAD)\n`, headers: { Allow: 'GET, HEAD' } });
    }
    const failed = (error: unknown) => {
      if (res.headersSent) return void res.destroy(); // a streamed answer broken off: never a whole-looking half
      if (error instanceof DatabaseMissingError) return done(missingDatabaseAnswer(error.message, { dbPath: options.dbPath, config: options.config, url }));
      try {
        return done(errorAnswer(error));
      } catch {
        options.log.error(`${url.pathname}: ${errorMessage(error)}`);
        return done({ status: 500, type: TEXT, body: `gpuledger serve could not answer: ${errorMessage(error)}\n` });
      }
    };
    const answer = async (): Promise<Reply | undefined> => {
      if (tokens) {
        const verdict = await tokens.check(req.socket.remoteAddress ?? '', tokensOf(req, url));
        if (verdict === 'query') {
          url.searchParams.delete('token');
          // the token leaves the address bar (and history) at once, kept in a cookie only this site gets
          return { status: 303, type: TEXT, body: '', headers: { Location: url.pathname + url.search, 'Set-Cookie': `${TOKEN_COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/` } };
        }
        if (verdict === 'busy') return { status: 429, type: TEXT, body: 'too many wrong tokens from this address; wait and try again\n', headers: { 'Retry-After': String(tokens.retryAfterSeconds()) } };
        if (verdict !== 'header') {
          return { status: 401, type: TEXT, body: 'a token is needed: Authorization: Bearer <token>, or open /?token=<token> once\n', headers: { 'WWW-Authenticate': 'Bearer' } };
        }
      }
      const head = req.method === 'HEAD';
      for (const streamed of STREAMED) {
        const match = streamed.pattern.exec(url.pathname);
        if (match) return sql(url, res, head, HEADERS, streamed.fixed?.(match));
      }
      return pages.answer(url);
    };
    answer().then((reply) => {
      if (reply) done(reply);
      else options.log.debug(`${req.method} ${url.pathname} ${res.statusCode} streamed ${Date.now() - started} ms`);
    }, failed);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new UsageError(`gpuledger serve cannot listen on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'the address is already in use (choose another --port, or 0 for any free port)' : error.message}`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  guard = requestGuard(options.host, port, allowHosts);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    protection: protectionText(options.host, options.token),
    server,
    warmed: pages.ready,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pages.close();
      await reader.close();
    },
  };
}
