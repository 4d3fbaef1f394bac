// The request loop against a real HTTP server on 127.0.0.1: what is retried, what fails at once, and what the error
// carries. The clock is injected, so backoff and Retry-After cost no real time.
import { describe, expect, it, onTestFinished, type TestContext } from 'vitest';
import {
  ApiArgumentError,
  ApiAuthError,
  ApiRequester,
  ApiServerError,
  ApiTransportError,
  ApiUnavailableError,
  ApiUrlError,
  type RequesterOptions,
} from '../../src/api/index.ts';
import { exitCodeOf } from '../../src/util/errors.ts';
import { json, manualClock, problem, reset, serverFor } from '../helpers/scripted-server.ts';

const KEY = 'sk-request-test-0123456789';
/** A requester of the test's own, closed when the test ends. */
function requesterFor(test: TestContext, url: string, options: Partial<RequesterOptions> = {}) {
  const clock = manualClock();
  const requester = new ApiRequester({ baseUrl: url, apiKey: KEY, apiKeyEnv: 'TEST_KEY', clock, initialRatePerSecond: 1000, maxRetries: 3, ...options });
  test.onTestFinished(() => requester.close());
  return { requester, clock };
}

const get = (r: ApiRequester) => r.request({ what: 'GET /v2/x', method: 'GET', path: '/v2/x' });

describe('ApiRequester', () => {
  it('retries a 503 and returns the answer that follows, with its size', async (test) => {
    const server = await serverFor(test, problem(503, 'deploying'), problem(503, 'deploying'), json(200, { ok: 1 }));
    const { requester } = requesterFor(test, server.url);
    const answer = await get(requester);
    expect(answer.json).toEqual({ ok: 1 });
    expect(answer.bytes).toBe('{"ok":1}'.length);
    expect(server.requests).toHaveLength(3);
    expect(requester.stats).toMatchObject({ requests: 3, retries: 2 });
  });

  it('does not retry a 501', async (test) => {
    const server = await serverFor(test, problem(501, 'not here'), json(200, { ok: 1 }));
    const { requester } = requesterFor(test, server.url);
    const e = await get(requester).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiServerError);
    expect((e as ApiServerError).status).toBe(501);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 404 or a 401, and types them', async (test) => {
    const server = await serverFor(test, problem(401, 'bad key'));
    const { requester } = requesterFor(test, server.url);
    const e = await get(requester).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiAuthError);
    expect(exitCodeOf(e)).toBe(2);
    expect((e as Error).message).toContain('TEST_KEY');
    expect((e as Error).message).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries with ApiUnavailableError whose cause is the last failure', async (test) => {
    const server = await serverFor(test, problem(503, 'overloaded'));
    const { requester, clock } = requesterFor(test, server.url);
    const e = await get(requester).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiUnavailableError);
    expect((e as Error).message).toBe('GET /v2/x failed after 4 attempts; last: 503 overloaded');
    const cause = (e as Error).cause;
    expect(cause).toBeInstanceOf(ApiServerError);
    expect((cause as ApiServerError).status).toBe(503);
    expect(server.requests).toHaveLength(4);
    // bounded exponential backoff: each wait at most 250 ms × 2^(n-1)
    const backoffs = clock.slept.filter((ms) => ms > 1); // the governor's own 1 ms pacing aside
    backoffs.forEach((ms, i) => expect(ms).toBeLessThanOrEqual(250 * 2 ** i));
  });

  it('keeps the network error as the cause after resets', async (test) => {
    const server = await serverFor(test, reset);
    const { requester } = requesterFor(test, server.url, { maxRetries: 1 });
    const e = await get(requester).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiUnavailableError);
    expect((e as Error).cause).toBeInstanceOf(ApiTransportError);
    expect(((e as Error).cause as Error).cause).toHaveProperty('code');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a truncated body', async (test) => {
    const server = await serverFor(test, 
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
        res.write('{"ok":');
        res.destroy();
      },
      json(200, { ok: 2 }),
    );
    const { requester } = requesterFor(test, server.url);
    expect((await get(requester)).json).toEqual({ ok: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('waits for Retry-After on a 429 and then repeats, counting it as rate-limited', async (test) => {
    const server = await serverFor(test, problem(429, 'rate limit exceeded for the minute window', { 'retry-after': '7' }), json(200, { ok: 3 }));
    const { requester, clock } = requesterFor(test, server.url);
    expect((await get(requester)).json).toEqual({ ok: 3 });
    expect(requester.stats).toMatchObject({ requests: 2, rateLimited: 1, retries: 0 });
    expect(Math.max(...clock.slept)).toBeGreaterThanOrEqual(7000);
  });

  it('refuses a key with a control character before undici sees it, as a typed one-line error', async (test) => {
    const server = await serverFor(test, json(200, {}));
    const requester = new ApiRequester({ baseUrl: server.url, apiKey: 'sk-bad\rkey-0123', apiKeyEnv: 'TEST_KEY' });
    test.onTestFinished(() => requester.close());
    const e = await get(requester).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiArgumentError);
    expect(exitCodeOf(e)).toBe(2);
    expect((e as Error).message).toMatch(/^[^\n]*TEST_KEY[^\n]*$/);
    expect((e as Error).message).not.toContain('sk-bad');
    expect(server.requests).toHaveLength(0);
  });

  it('turns an undici argument error into ApiArgumentError without retrying', async (test) => {
    const server = await serverFor(test, json(200, {}));
    const { requester } = requesterFor(test, server.url);
    const e = await requester.request({ what: 'GET bad path', method: 'GET', path: 'no-leading-slash' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiArgumentError);
    expect((e as Error).message).toMatch(/^GET bad path could not be sent: /);
    expect(requester.stats.requests).toBe(1);
  });

  it.each(['ftp://example.com', 'localhost:8787', 'not a url'])('refuses the base URL %s with a usage error', async (url) => {
    const requester = new ApiRequester({ baseUrl: url, apiKey: KEY, apiKeyEnv: 'TEST_KEY' });
    onTestFinished(() => requester.close());
    const e = await get(requester).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiUrlError);
    expect(exitCodeOf(e)).toBe(2);
    expect((e as Error).message).toMatch(/expected an http:\/\/ or https:\/\/ URL/);
  });
});
