// The token that lets another machine in (issue 26 §4): long enough not to be guessed, compared in constant time, and
// each client address that sent a wrong one waits before its next token is looked at – 100 ms after the first
// failure, doubling up to 5 s – one check at a time, with a few requests queued and the rest turned away at once.
// A right token clears its address. Bounded on purpose: another address is never slowed, and the same address waits
// seconds, never forever; what keeps the token safe is its length (32 characters or more), the wait only slows a
// guesser further.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { UsageError } from '../util/errors.ts';

export const TOKEN_ENV = 'GPULEDGER_SERVE_TOKEN';
export const MIN_TOKEN_LENGTH = 32;

export function checkToken(token: string): void {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(`${TOKEN_ENV} must be at least ${MIN_TOKEN_LENGTH} characters, it has ${token.length}; make one with: openssl rand -hex 16`);
  }
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const TOKEN_COOKIE = 'gpuledger_token';

/** The tokens a request carries: ?token=, Authorization: Bearer, the cookie. */
export function tokensOf(req: IncomingMessage, url: URL): { query?: string; bearer?: string; cookie?: string } {
  return {
    query: url.searchParams.get('token') ?? undefined,
    bearer: /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1],
    cookie: new RegExp(`(?:^|;\\s*)${TOKEN_COOKIE}=([^;]+)`).exec(req.headers.cookie ?? '')?.[1],
  };
}

export type TokenVerdict = 'query' | 'header' | 'missing' | 'wrong' | 'busy';

interface Client {
  failures: number;
  lastFailure: number;
  turn: Promise<unknown>;
  waiting: number;
}

export interface ThrottleOptions {
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Requests of one address that may wait their turn; more are answered 429 at once, their token unread. */
  maxWaiting?: number;
  /** An address is forgotten this long after its last failure. */
  forgetMs?: number;
}

const MAX_CLIENTS = 10_000;

export function tokenGuard(token: string, options: ThrottleOptions = {}) {
  const first = options.firstDelayMs ?? 100;
  const cap = options.maxDelayMs ?? 5_000;
  const maxWaiting = options.maxWaiting ?? 8;
  const forget = options.forgetMs ?? 15 * 60_000;
  const clients = new Map<string, Client>();
  const delay = (failures: number) => (failures === 0 ? 0 : Math.min(cap, first * 2 ** (failures - 1)));
  const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms).unref());

  function judge(tokens: ReturnType<typeof tokensOf>): TokenVerdict {
    if (sameToken(tokens.query, token)) return 'query';
    if (sameToken(tokens.bearer, token) || sameToken(tokens.cookie, token)) return 'header';
    return tokens.query === undefined && tokens.bearer === undefined && tokens.cookie === undefined ? 'missing' : 'wrong';
  }

  function record(address: string, client: Client | undefined, verdict: TokenVerdict): void {
    if (verdict === 'query' || verdict === 'header') {
      if (client && client.waiting === 0) clients.delete(address);
      else if (client) client.failures = 0;
    } else if (verdict === 'wrong') {
      const known = client ?? { failures: 0, lastFailure: 0, turn: Promise.resolve(), waiting: 0 };
      known.failures++;
      known.lastFailure = Date.now();
      if (!client) {
        // the oldest addresses go first: the table stays small whatever an attacker sends
        if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
        clients.set(address, known);
      }
    }
  }

  return {
    /** How the request's token compares; an address that failed before waits its turn first. */
    async check(address: string, tokens: ReturnType<typeof tokensOf>): Promise<TokenVerdict> {
      let seen = clients.get(address);
      if (seen && Date.now() - seen.lastFailure > forget && seen.waiting === 0) (clients.delete(address), (seen = undefined));
      if (!seen || (seen.failures === 0 && seen.waiting === 0)) {
        const verdict = judge(tokens);
        record(address, seen, verdict);
        return verdict;
      }
      if (judge(tokens) === 'missing') return 'missing'; // nothing to guess with: no need to wait
      if (seen.waiting >= maxWaiting) return 'busy';
      const client = seen;
      client.waiting++;
      const mine = client.turn.then(async () => {
        await sleep(Math.max(0, client.lastFailure + delay(client.failures) - Date.now()));
        const verdict = judge(tokens);
        record(address, client, verdict);
        return verdict;
      });
      client.turn = mine.finally(() => client.waiting--);
      return mine;
    },
    /** The longest one address waits for its turn now (for Retry-After). */
    retryAfterSeconds: () => Math.ceil((cap * maxWaiting) / 1000),
  };
}
