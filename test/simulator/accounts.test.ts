// Several accounts on one simulator (issue 21 §1): each key sees its own account – inventory, billing, GraphQL
// balance – and spends its own quota, as each team account's key does on the platform.
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.ts';
import { UsageError } from '../../src/util/errors.ts';
import { get, KEY, NOW, sumMicros } from '../helpers/simulator-http.ts';

const A = 'team-a-key';
const B = 'team-b-key';

describe('a simulator serving several accounts', () => {
  it('answers each key from its own account, equal to that account\'s ledger', async () => {
    const sim = await startSimulator({ now: NOW, accounts: [{ key: A, seed: 7 }, { key: B, seed: 8, scale: 'medium' }] });
    try {
      const ids = async (key: string) => ((await get(sim, '/v2/pods', key)).body.pods as Array<{ id: string }>).map((p) => p.id).sort().join();
      const [main, a, b] = [await ids(KEY), await ids(A), await ids(B)];
      expect(new Set([main, a, b]).size).toBe(3);
      const ownIds = new Set(sim.accountOf(A).account.pods.map((p) => p.id));
      expect(a.split(',').every((id) => ownIds.has(id))).toBe(true);
      expect(sim.accountOf(B).account.pods.length).toBeGreaterThan(sim.accountOf(A).account.pods.length);
      expect(sim.accountOf('any-other-key').account).toBe(sim.account);

      const start = '2026-11-10T00:00:00Z';
      const end = '2026-11-20T00:00:00Z';
      for (const key of [KEY, A, B]) {
        const r = await get(sim, `/v2/billing/pods?bucketSize=day&startTime=${start}&endTime=${end}`, key);
        expect(r.status).toBe(200);
        const want = sim.accountOf(key).ledger.sum({ source: 'pods', start: new Date(start), end: new Date(end) }).totalAmount;
        expect(sumMicros(r.body.records, 'totalAmount')).toBe(want);
      }
    } finally {
      await sim.close();
    }
  });

  it('counts each key against its own quota', async () => {
    const sim = await startSimulator({ now: NOW, quotas: { minute: 3 }, accounts: [{ key: A, seed: 7 }] });
    try {
      // keep the three requests of each key in one minute window
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
      for (let i = 0; i < 3; i++) expect((await get(sim, '/v2/templates', KEY)).status).toBe(200);
      expect((await get(sim, '/v2/templates', KEY)).status).toBe(429);
      expect((await get(sim, '/v2/templates', A)).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('refuses a key given to two accounts', async () => {
    await expect(startSimulator({ now: NOW, accounts: [{ key: A, seed: 1 }, { key: A, seed: 2 }] })).rejects.toThrow(UsageError);
    await expect(startSimulator({ now: NOW, accounts: [{ key: KEY, seed: 1 }] })).rejects.toThrow(/a key of its own/);
  });
});
