// The simulated clock: the open bucket accrues in 5-minute steps (billing-api-v2.md §6), recent closed hours are
// restated (§2), and the same seed and now give byte-identical answers.
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.ts';
import { get, micros, NOW } from '../helpers/simulator-http.ts';

const MINUTE = 60_000;

describe('clock', () => {
  it('grows the open bucket as the clock advances, in 5-minute steps', async () => {
    const sim = await startSimulator({ now: '2026-11-20T12:31:00Z' });
    try {
      const openHour = async () => (await get(sim, '/v2/billing?bucketSize=hour&lastN=1')).body.records[0].totalAmount as number;
      const first = await openHour();
      sim.setNow('2026-11-20T12:34:59Z'); // same 5-minute step
      expect(await openHour()).toBe(first);
      sim.advance(10 * MINUTE);
      const later = await openHour();
      expect(later).toBeGreaterThan(first);
      expect(micros(later)).toBe(sim.ledger.sum({ source: 'aggregate', start: new Date('2026-11-20T12:00:00Z'), end: new Date('2026-11-20T13:00:00Z') }).totalAmount);
    } finally {
      await sim.close();
    }
  });

  it('restates a closed hour: the read just after it closes differs from the read two hours later', async () => {
    const sim = await startSimulator({ now: NOW });
    try {
      const restated = sim.account.planted.restatedPod.id;
      const steady = sim.ledger.resourceIds('pods').find((id) => !sim.account.restatedIds.has(id) && id !== restated)!;
      const hour = (podId: string) => get(sim, `/v2/billing/pods?bucketSize=hour&startTime=2026-11-20T09:00:00Z&endTime=2026-11-20T10:00:00Z&podId=${podId}`);
      sim.setNow('2026-11-20T10:00:30Z');
      const preliminary = (await hour(restated)).body.records[0];
      const steadyEarly = (await hour(steady)).body.records[0];
      const ledgerEarly = sim.ledger.sum({ source: 'pods', start: new Date('2026-11-20T09:00:00Z'), end: new Date('2026-11-20T10:00:00Z'), resourceId: restated });
      sim.setNow('2026-11-20T12:00:30Z');
      const final = (await hour(restated)).body.records[0];
      expect(final.gpuAmount).toBe(1.38); // 2 × RTX 4090 at $0.69 on SECURE, one full hour
      expect(preliminary.totalAmount).not.toBe(final.totalAmount);
      expect(preliminary.gpuAmount).toBeLessThan(final.gpuAmount);
      expect(ledgerEarly.totalAmount).toBe(micros(preliminary.totalAmount));
      expect((await hour(steady)).body.records[0]).toEqual(steadyEarly);
    } finally {
      await sim.close();
    }
  });

  it('answers byte-identically for the same seed and now, and differently for another seed', async () => {
    const [a, b, c] = await Promise.all([startSimulator({ now: NOW }), startSimulator({ now: NOW }), startSimulator({ now: NOW, seed: 7 })]);
    try {
      for (const path of ['/v2/billing/pods?bucketSize=hour&lastN=48', '/v2/billing?lastN=30', '/v2/pods?includeClusterPods=true', '/v2/serverless']) {
        const [x, y, z] = await Promise.all([get(a, path), get(b, path), get(c, path)]);
        expect(y.text).toBe(x.text);
        expect(z.text).not.toBe(x.text);
      }
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('keeps the past unchanged when the clock moves on', async () => {
    const sim = await startSimulator({ now: NOW });
    try {
      const path = '/v2/billing?startTime=2026-10-01T00:00:00Z&endTime=2026-11-01T00:00:00Z';
      const before = (await get(sim, path)).text;
      sim.advance(3 * 24 * 60 * MINUTE);
      expect((await get(sim, path)).text).toBe(before);
    } finally {
      await sim.close();
    }
  });

  it('runs with the wall clock when no now is given', async () => {
    const started = Date.now();
    const sim = await startSimulator();
    try {
      expect(Math.abs(sim.now().getTime() - started)).toBeLessThan(60_000);
      sim.advance(3_600_000);
      expect(sim.now().getTime() - Date.now()).toBeGreaterThan(3_500_000);
    } finally {
      await sim.close();
    }
  });
});
