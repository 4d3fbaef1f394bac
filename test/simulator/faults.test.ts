// Fault injection observed by a raw HTTP client (node:http): each fault kind, only after authentication, and
// reproducible from the seed.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseFaultSpec, startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { UsageError } from '../../src/util/errors.ts';
import { KEY, NOW, UNLIMITED, withSimulator } from '../helpers/simulator-http.ts';

interface RawResult {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body: Buffer;
  complete: boolean;
  error?: string;
  ms: number;
}

function rawGet(sim: Simulator, path: string, key: string | null = KEY): Promise<RawResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (r: Omit<RawResult, 'body' | 'ms'>) => resolve({ ...r, body: Buffer.concat(chunks), ms: performance.now() - started });
    const req = request(sim.url + path, { headers: key ? { Authorization: `Bearer ${key}` } : {}, agent: false }, (res) => {
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, complete: res.complete }));
      res.on('error', (e) => done({ status: res.statusCode, headers: res.headers, complete: false, error: e.message }));
      res.on('aborted', () => done({ status: res.statusCode, headers: res.headers, complete: false, error: 'aborted' }));
    });
    req.on('error', (e) => done({ complete: false, error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end();
  });
}

const withFaults = (faults: string, fn: (sim: Simulator) => Promise<void>) => withSimulator({ faults, quotas: UNLIMITED }, fn);

describe('faults', () => {
  it('5xx answers 503 or 500 as problem+json with RateLimit headers', async () => {
    await withFaults('5xx=1', async (sim) => {
      const r = await rawGet(sim, '/v2/billing/pods');
      expect([500, 503]).toContain(r.status);
      expect(r.headers!['content-type']).toBe('application/problem+json');
      expect(JSON.parse(r.body.toString())).toMatchObject({ status: r.status });
      expect(r.headers!.ratelimit).toBeDefined();
    });
  });

  it('reset breaks the connection before or during the answer', async () => {
    await withFaults('reset=1', async (sim) => {
      for (let i = 0; i < 4; i++) {
        const r = await rawGet(sim, '/v2/billing/pods?lastN=3');
        expect(r.complete).toBe(false);
        expect(r.error).toBeDefined();
      }
    });
  });

  it('truncate sends less body than its Content-Length', async () => {
    await withFaults('truncate=1', async (sim) => {
      const r = await rawGet(sim, '/v2/billing/pods?lastN=3');
      expect(r.status).toBe(200);
      expect(r.complete).toBe(false);
      expect(r.body.length).toBeLessThan(Number(r.headers!['content-length']));
      expect(r.body.length).toBeGreaterThan(0);
    });
  });

  it('latency delays every answer', async () => {
    await withFaults('latency=300ms', async (sim) => {
      const r = await rawGet(sim, '/v2/pods');
      expect(r.status).toBe(200);
      expect(r.ms).toBeGreaterThanOrEqual(290);
    });
  });

  it('drift drops a required amount field from some records of that route only', async () => {
    await withFaults('drift=pods@1', async (sim) => {
      const r = await rawGet(sim, '/v2/billing/pods?bucketSize=hour&lastN=12');
      expect(r.status).toBe(200);
      const records = JSON.parse(r.body.toString()).records as Record<string, unknown>[];
      const fields = ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount'];
      const drifted = records.filter((rec) => fields.some((f) => !(f in rec)));
      expect(drifted.length).toBeGreaterThan(0);
      expect(drifted.length).toBeLessThan(records.length);
      const other = JSON.parse((await rawGet(sim, '/v2/billing?bucketSize=hour&lastN=12')).body.toString()).records as Record<string, unknown>[];
      expect(other.every((rec) => 'podGpuAmount' in rec && 'totalAmount' in rec)).toBe(true);
    });
  });

  it('429 injection answers Retry-After 1 although quota remains, consuming none', async () => {
    await withFaults('429=1', async (sim) => {
      const r = await rawGet(sim, '/v2/pods');
      expect(r.status).toBe(429);
      expect(r.headers!['retry-after']).toBe('1');
      expect(JSON.parse(r.body.toString()).detail).toBe('rate limit exceeded for the minute window');
      expect(r.headers!.ratelimit).toMatch(/^"minute";r=1000000;/);
    });
  });

  it('graphql=down answers 503 on /graphql', async () => {
    await withFaults('graphql=down', async (sim) => {
      const res = await fetch(`${sim.url}/graphql?api_key=sim-demo-key`, { method: 'POST', body: '{"query":"{ myself { endpoints { id } } }"}' });
      expect(res.status).toBe(503);
      await res.arrayBuffer();
    });
  });

  it('applies faults only after authentication', async () => {
    await withFaults('5xx=1,latency=300ms', async (sim) => {
      const r = await rawGet(sim, '/v2/billing/pods', null);
      expect(r.status).toBe(401);
      expect(r.ms).toBeLessThan(290);
    });
  });

  it('draws the same faults for the same seed, and setFaults replaces them', async () => {
    const statuses = async () => {
      const sim = await startSimulator({ now: NOW, faults: '5xx=0.5', quotas: UNLIMITED });
      try {
        const out: (number | undefined)[] = [];
        for (let i = 0; i < 12; i++) out.push((await rawGet(sim, '/v2/pods')).status);
        sim.setFaults(undefined);
        out.push((await rawGet(sim, '/v2/pods')).status);
        return out;
      } finally {
        await sim.close();
      }
    };
    const first = await statuses();
    expect(await statuses()).toEqual(first);
    expect(new Set(first.slice(0, 12)).size).toBeGreaterThan(1);
    expect(first[12]).toBe(200);
  });

  it('rejects an unknown fault spec with a message naming what is accepted', () => {
    expect(() => parseFaultSpec('5xx=2')).toThrow(UsageError);
    expect(() => parseFaultSpec('drift=gpus')).toThrow(/aggregate, pods/);
    expect(parseFaultSpec('5xx=0.1,reset=0.05,truncate=0.02,latency=1.5s,drift=pods,429=0.1,graphql=down')).toEqual({
      serverError: 0.1, reset: 0.05, truncate: 0.02, latencyMs: 1500, drift: [{ source: 'pods', probability: 0.5 }], rateLimit: 0.1, graphqlDown: true,
    });
  });
});
