// The balance adapter against the simulator over real HTTP: the required and optional fields as exact decimals; an
// unknown optional field is dropped, remembered for the client's life and never asked again; an unknown required
// field fails with a typed error.
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiGraphqlError } from '../../src/api/index.ts';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { microsToDecimalString } from '../../src/util/decimal.ts';
import { listenOnLoopback } from '../helpers/loopback.ts';
import { NOW } from '../helpers/simulator-http.ts';

let sim: Simulator | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await sim?.close();
  client = undefined;
  sim = undefined;
});

async function setup(unknownGraphqlFields: string[] = []) {
  sim = await startSimulator({ now: NOW, unknownGraphqlFields });
  client = new ApiClient({ baseUrl: sim.url, apiKey: 'sim-demo-key', apiKeyEnv: 'TEST_KEY', initialRatePerSecond: 1000 });
  return { sim, client };
}

describe('balance adapter', () => {
  it('reads the balance, burn rate, spend limit and top-ups as exact decimals', async () => {
    const { sim, client } = await setup();
    const r = await client.balance();
    const snap = sim.balance.at(sim.now().getTime());
    expect(r.balance).toBe(microsToDecimalString(BigInt(snap.balanceMicros)));
    expect(r.spendPerHour).toBe(microsToDecimalString(BigInt(snap.spendPerHourMicros)));
    expect(r.spendLimit).toBe('80.000000');
    expect(r.topUps).toHaveLength(snap.reloads.length);
    expect(r.topUps![0]).toMatchObject({ type: 'RELOAD', completedAt: snap.reloads[0]!.at.toISOString().replace('.000Z', 'Z') });
    expect(r.missing).toEqual([]);
    expect(client.stats.requests).toBe(1);
  });

  it('retries without an optional field the platform does not know and remembers it for the run', async () => {
    const { sim, client } = await setup(['stripeReloadHistory']);
    const first = await client.balance();
    expect(first.missing).toEqual(['stripeReloadHistory']);
    expect(first.topUps).toBeNull();
    expect(first.balance).toBe(microsToDecimalString(BigInt(sim.balance.at(sim.now().getTime()).balanceMicros)));
    expect(client.stats.requests).toBe(2);
    await client.balance();
    expect(client.stats.requests).toBe(3); // not asked again
  });

  it('reads each top-up with its medium, and without it from a platform that does not know one', async () => {
    const { client: withMedium } = await setup();
    expect((await withMedium.balance()).topUps!.every((t) => t.medium === 'CARD')).toBe(true);
    await client!.close();
    await sim!.close();
    const { client: older } = await setup(['medium']);
    const r = await older.balance();
    expect(r.topUps!.length).toBeGreaterThan(0);
    expect(r.topUps!.every((t) => t.medium === null)).toBe(true);
    expect(r.missing).toEqual([]);
    expect(older.stats.requests).toBe(2);
    await older.balance();
    expect(older.stats.requests).toBe(3); // not asked again
  });

  it('fails with a typed error when a required field is unknown', async () => {
    const { client } = await setup(['currentSpendPerHr']);
    const error = await client.balance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiGraphqlError);
    expect((error as Error).message).toMatch(/Cannot query field "currentSpendPerHr"/);
  });

  it('refuses a balance no store could hold (1e308), naming the field, instead of failing later in DuckDB', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data":{"myself":{"clientBalance":1e308,"currentSpendPerHr":1.5,"spendLimit":80,"underBalance":false,"minBalance":0,"stripeReloadHistory":[]}}}');
      });
    });
    const port = await listenOnLoopback(server);
    try {
      client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', apiKeyEnv: 'TEST_KEY', initialRatePerSecond: 1000 });
      const error = await client.balance().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiGraphqlError);
      expect((error as Error).message).toMatch(/clientBalance.*outside any amount gpuledger stores/);
    } finally {
      server.close();
    }
  });
});
