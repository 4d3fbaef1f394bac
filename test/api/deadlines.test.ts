// No remote holds a request hostage (issue 18 §5, §8): every attempt has deadlines, a host that lets several attempts
// in a row run out of time is given up on for the run (the breaker), an https:// URL on a plain-HTTP port fails at
// once in one line, and a wrong queue URL names the queue's own flag. Real servers on 127.0.0.1; short deadlines.
// The tests run side by side, each with its own server and requesters: most of their time is deadlines running out
// (undici's timers fire on a ~1 s tick, so a 150 ms deadline ends after about a second), not work.
import { describe, expect, it, type TestContext } from 'vitest';
import {
  ApiNotPlatformError,
  ApiNotTlsError,
  ApiRequester,
  ApiUnavailableError,
  HostBreakers,
  HostUnresponsiveError,
  QUEUE_API_URL_SOURCE,
  type RequesterOptions,
} from '../../src/api/index.ts';
import { exitCodeOf } from '../../src/util/errors.ts';
import { html, json, manualClock, serverFor, type Handler } from '../helpers/scripted-server.ts';

const KEY = 'sk-deadlines-test-0123456789';
/** Takes the request and never answers. */
const silent: Handler = () => undefined;
const SHORT = { connectMs: 1_000, headersMs: 150, bodyMs: 150 };

function requesterFor(test: TestContext, url: string, options: Partial<RequesterOptions> = {}): ApiRequester {
  const r = new ApiRequester({ baseUrl: url, apiKey: KEY, apiKeyEnv: 'TEST_KEY', clock: manualClock(), initialRatePerSecond: 1000, timeouts: SHORT, ...options });
  test.onTestFinished(() => r.close());
  return r;
}

const get = (r: ApiRequester, path = '/v2/x') => r.request({ what: `GET ${path}`, method: 'GET', path });

describe.concurrent('deadlines and the per-host breaker', () => {
  it('gives a silent host up after three attempts in a row ran out of time, and fails its other requests without asking', async (test) => {
    const server = await serverFor(test, silent);
    const breakers = new HostBreakers();
    const first = requesterFor(test, server.url, { breakers, maxRetries: 6 });
    const e = await get(first).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HostUnresponsiveError);
    expect((e as Error).message).toMatch(/^GET \/v2\/x: 127\.0\.0\.1:\d+ let 3 requests in a row run out of time, so its other requests in this run are skipped/);
    expect(exitCodeOf(e)).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(first.stats).toMatchObject({ requests: 3, retries: 2 });

    // another requester of the same run (another account, the same host) is refused before it sends anything
    const second = requesterFor(test, server.url, { breakers });
    await expect(get(second, '/v2/y')).rejects.toBeInstanceOf(HostUnresponsiveError);
    expect(server.requests).toHaveLength(3);
    expect(breakers.open()).toEqual([new URL(server.url).host]);
  });

  it('counts only attempts in a row: an answer in between keeps the host', async (test) => {
    const server = await serverFor(test, silent, silent, json(200, { n: 1 }), silent, silent, json(200, { n: 2 }));
    const breakers = new HostBreakers();
    const r = requesterFor(test, server.url, { breakers, maxRetries: 6 });
    expect((await get(r)).json).toEqual({ n: 1 });
    expect((await get(r)).json).toEqual({ n: 2 });
    expect(server.requests).toHaveLength(6);
    expect(breakers.open()).toEqual([]);
  });

  it("holds a call to its own, shorter deadline when it sets one", async (test) => {
    const server = await serverFor(test, silent);
    // the requester would wait a minute per attempt; the call's 150 ms decide
    const r = requesterFor(test, server.url, { maxRetries: 0, timeouts: { headersMs: 60_000 } });
    const e = await r.request({ what: 'GET /v2/gpus', method: 'GET', path: '/v2/gpus', timeouts: { headersMs: 150 } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiUnavailableError);
    expect((e as Error).message).toMatch(/UND_ERR_HEADERS_TIMEOUT/);
  });
});

describe.concurrent('a wrong URL told in one line', () => {
  it('fails https:// to a plain-HTTP port at once, saying it does not speak TLS (exit 2)', async (test) => {
    const server = await serverFor(test, json(200, { ok: 1 }));
    const url = server.url.replace('http:', 'https:');
    const r = requesterFor(test, url, { maxRetries: 6 });
    const e = await get(r).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiNotTlsError);
    expect((e as Error).message).toBe(`GET /v2/x: ${url} does not speak TLS; did you mean ${server.url}?`);
    expect(exitCodeOf(e)).toBe(2);
    expect(r.stats).toMatchObject({ requests: 1, retries: 0 });
  });

  it('names --queue-api-url when the queue URL answers an HTML page', async (test) => {
    const server = await serverFor(test, html(200));
    const r = requesterFor(test, `${server.url}/queue`, { source: QUEUE_API_URL_SOURCE });
    const e = await get(r, '/v2/ep1/health').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiNotPlatformError);
    expect((e as Error).message).toMatch(/check --queue-api-url, GPULEDGER_QUEUE_API_URL or queueApiUrl in the config \(expected e\.g\. https:\/\/api\.runpod\.ai\)$/);
    expect((e as Error).message).not.toContain('--api-url,');
  });
});
