// The queue API's /health is asked side by side, within one overall deadline (issue 26 §7): against a local queue
// API that answers every endpoint, but slowly, forty endpoints take about the deadline – not forty answers one after
// another – at most QUEUE_HEALTH_CONCURRENCY requests are in flight at once, and the endpoints the deadline cut off
// are named in the one warning line with its reason.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { QUEUE_HEALTH_CONCURRENCY, sampleQueueHealth } from '../../src/metrics/sample-queue-health.ts';
import { silentLogger } from '../../src/util/log.ts';
import { closeServer, listenOnLoopback } from '../helpers/loopback.ts';

const ENDPOINTS = 40;
const ANSWER_MS = 1_000;
const DEADLINE_MS = 2_500;

describe('queue health sampling', () => {
  let server: Server;
  let url: string;
  let inFlight = 0;
  let mostInFlight = 0;
  let asked = 0;

  beforeAll(async () => {
    // a queue API that answers every /health, each after ANSWER_MS
    server = createServer((req, res) => {
      asked++;
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const timer = setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jobs: { completed: 1, failed: 0, inProgress: 0, inQueue: 0, retried: 0 } }));
      }, ANSWER_MS);
      res.on('close', () => {
        if (!res.writableEnded) {
          clearTimeout(timer);
          inFlight--;
        }
      });
      void req;
    });
    url = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  });
  afterAll(() => closeServer(server, () => server.closeAllConnections()));

  it('asks the endpoints side by side and stops at the overall deadline, naming the endpoints it cut off', async () => {
    const config = parseConfig({ apiUrl: url, queueApiUrl: url, accounts: [{ name: 'team', apiKeyEnv: 'QUEUE_TEST_KEY' }], sync: { sources: ['health'] } }, 'test');
    const [account] = resolveAccounts(config, config.apiUrl, { QUEUE_TEST_KEY: 'queue-test-key-0123' });
    const docs = Array.from({ length: ENDPOINTS }, (_, i) => ({ kind: 'endpoint', id: `ep${String(i).padStart(2, '0')}`, doc: { id: `ep${String(i).padStart(2, '0')}`, name: `endpoint-${i}` } }));
    const harvest = { inventory: { read: { docs } }, warnings: [] as string[] };
    const client = new ApiClient({ baseUrl: url, apiKey: account!.apiKey, apiKeyEnv: account!.apiKeyEnv });
    try {
      const result = await sampleQueueHealth({ client, account: account!, config, sources: ['health'], log: silentLogger, deadlineMs: DEADLINE_MS }, harvest);
      const sampled = result!.samples.length;
      // side by side (as many in flight as allowed), and cut off by the one deadline: fewer sampled than asked for
      // (no timing assertion – the deadline itself is what ends the sampling, whatever the machine's speed)
      expect(mostInFlight).toBe(QUEUE_HEALTH_CONCURRENCY);
      expect(sampled).toBeGreaterThanOrEqual(QUEUE_HEALTH_CONCURRENCY);
      expect(sampled).toBeLessThan(ENDPOINTS);
      // every sample came back whole, in the inventory's order
      expect(result!.samples.map((s) => s.endpointId)).toEqual(docs.slice(0, sampled).map((d) => d.id));
      expect(result!.samples.every((s) => s.jobs.completed === 1)).toBe(true);
      expect(asked).toBeLessThan(ENDPOINTS);
      expect(harvest.warnings).toEqual([
        `team: queue health not sampled for ${ENDPOINTS - sampled} of ${ENDPOINTS} endpoint(s) (endpoint-${sampled}, ` +
          `${Array.from({ length: 9 }, (_, i) => `endpoint-${sampled + 1 + i}`).join(', ')} and ${ENDPOINTS - sampled - 10} more): ` +
          'the queue API did not answer every endpoint within the 2.5 s all samples of an account may take',
      ]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
