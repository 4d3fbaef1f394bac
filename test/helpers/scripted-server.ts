// Test parts for the API client: a real HTTP server on 127.0.0.1 (port 0) that answers from a script, a clock whose
// sleeps only move its hands (so backoff and rate-limit waits cost no real time), and a logger that keeps its lines.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TestContext } from 'vitest';
import type { Clock } from '../../src/api/index.ts';
import { createLogger, type Logger } from '../../src/util/log.ts';
import { closeServer, listenOnLoopback } from './loopback.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

export interface ScriptedServer {
  url: string;
  /** Requests received, in order (method and path with query). */
  requests: { method: string; url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** Answers request n with handlers[n], and every later request with the last handler. */
export async function scriptedServer(...handlers: Handler[]): Promise<ScriptedServer> {
  const requests: ScriptedServer['requests'] = [];
  const server = createServer((req, res) => {
    const n = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => handlers[Math.min(n, handlers.length - 1)]!(req, res, n));
  });
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, requests, close: () => closeServer(server, () => server.closeAllConnections()) };
}

/** A scripted server for one test, closed when the test ends (after the clients the test made since: last first). */
export async function serverFor(test: TestContext, ...handlers: Handler[]): Promise<ScriptedServer> {
  const server = await scriptedServer(...handlers);
  test.onTestFinished(() => server.close());
  return server;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
}

export function problem(status: number, detail: string, headers: Record<string, string> = {}): Handler {
  return json(status, { title: 'error', status, detail }, headers);
}

export function html(status: number): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><body><h1>${status === 200 ? 'Welcome' : 'Not Found'}</h1></body></html>`);
  };
}

/** Destroys the socket before any answer: a connection reset. */
export const reset: Handler = (req) => req.socket.destroy();

export interface ManualClock extends Clock {
  /** Every sleep asked for, in ms. */
  slept: number[];
  advance(ms: number): void;
}

export function manualClock(start = Date.parse('2026-11-20T12:00:00Z')): ManualClock {
  let t = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export function captureLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = { write: (s: string) => lines.push(s.trimEnd()) > 0 } as unknown as NodeJS.WritableStream;
  return { log: createLogger({ level: 'debug', stream, timestamps: false }), lines };
}
