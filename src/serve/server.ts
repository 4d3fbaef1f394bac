// `gpuledger serve`: a read-only web app over the published database. Pages read it through a store reopened when a
// new file is published (published-reader.ts), so new data shows up without a restart and no writer ever waits for
// it. GET and HEAD only; nothing writes. Loopback by default; any other address
// needs a token from the environment (GPULEDGER_SERVE_TOKEN), sent as `Authorization: Bearer` or once as ?token=
// (then kept in a same-site cookie). Every answer carries the page's Content-Security-Policy.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/schema.ts';
import { contentSecurityPolicy } from '../report/index.ts';
import { errorMessage, UsageError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { answerCache, publishedReader } from './published-reader.ts';
import { route, type Answer } from './routes.ts';

export interface ServeOptions {
  dbPath: string;
  config: Config;
  host: string;
  port: number;
  /** Required unless host is a loopback address. */
  token?: string;
  /** Keep answers per published file and URL (default true; the benchmark measures pages without it too). */
  cacheAnswers?: boolean;
  log: Logger;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export const TOKEN_ENV = 'GPULEDGER_SERVE_TOKEN';

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage): string | undefined {
  return /(?:^|;\s*)gpuledger_token=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
}

const HEADERS = {
  'Content-Security-Policy': contentSecurityPolicy("'self'"),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

function send(res: ServerResponse, req: IncomingMessage, a: Answer): void {
  const body = Buffer.from(a.body);
  res.writeHead(a.status, { ...HEADERS, 'Content-Type': a.type, 'Content-Length': String(body.length), ...(a.headers ?? {}) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export async function startServe(o: ServeOptions): Promise<RunningServer> {
  if (!isLoopback(o.host) && !o.token) {
    throw new UsageError(`serving on ${o.host} (not loopback) needs a token: set ${TOKEN_ENV} (requests then send Authorization: Bearer <token>, or open /?token=<token> once)`);
  }
  const reader = publishedReader(o.dbPath, o.config.allocation);
  const cache = answerCache<Answer>(o.cacheAnswers === false ? 0 : undefined);
  const server = createServer((req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://gpuledger.local');
    const done = (a: Answer) => {
      send(res, req, a);
      o.log.debug(`${req.method} ${url.pathname} ${a.status} ${Date.now() - started} ms`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return done({ status: 405, type: 'text/plain; charset=utf-8', body: `${req.method} is not allowed: gpuledger serve only reads (GET, HEAD)\n`, headers: { Allow: 'GET, HEAD' } });
    }
    if (o.token) {
      const query = url.searchParams.get('token') ?? undefined;
      if (sameToken(query, o.token)) {
        url.searchParams.delete('token');
        // the token leaves the address bar (and history) at once, kept in a cookie only this site gets
        return done({ status: 303, type: 'text/plain; charset=utf-8', body: '', headers: { Location: url.pathname + url.search, 'Set-Cookie': `gpuledger_token=${o.token}; HttpOnly; SameSite=Strict; Path=/` } });
      }
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!sameToken(bearer, o.token) && !sameToken(cookieToken(req), o.token)) {
        return done({ status: 401, type: 'text/plain; charset=utf-8', body: 'a token is needed: Authorization: Bearer <token>, or open /?token=<token> once\n', headers: { 'WWW-Authenticate': 'Bearer' } });
      }
    }
    route(url, { dbPath: o.dbPath, config: o.config, reader, cache }).then(done, (e: unknown) => {
      o.log.error(`${url.pathname}: ${errorMessage(e)}`);
      done({ status: 500, type: 'text/plain; charset=utf-8', body: `gpuledger serve could not answer: ${errorMessage(e)}\n` });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new UsageError(`gpuledger serve cannot listen on ${o.host}:${o.port}: ${e.code === 'EADDRINUSE' ? 'the address is already in use (choose another --port, or 0 for any free port)' : e.message}`)),
    );
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}`,
    server,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await reader.close();
    },
  };
}
