// The planted facts hold in every scale, with the money the contract's prices imply (billing-api-v2.md §6), and the
// account has the rhythm reports are made for: weekday/weekend seasonality and growth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GPU_CATALOG, startSimulator, type BillingSource, type Simulator } from '../../src/simulator/index.ts';
import { NOW } from '../helpers/simulator-http.ts';

const DAY = 86_400_000;
const d0 = new Date('2026-11-20T00:00:00Z').getTime();

describe.each(['small', 'medium', 'large'] as const)('planted facts, %s scale', (scale) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ now: NOW, scale });
  });
  afterAll(() => sim.close());

  const daily = (source: BillingSource, id: string | undefined, day: number) =>
    sim.ledger.sum({ source, start: new Date(day), end: new Date(day + DAY), resourceId: id });
  const alive = <T extends { createdAt: Date }>(r: T, gone: Date | null) => r.createdAt <= sim.now() && (gone === null || gone > sim.now());

  it('has the scale’s size', () => {
    const pods = sim.account.pods.filter((p) => p.cluster === null).length;
    expect(pods).toBe({ small: 12, medium: 150, large: 1000 }[scale]);
    expect(sim.account.endpoints.length).toBe({ small: 5, medium: 25, large: 100 }[scale]);
    expect(sim.account.volumes.length).toBe({ small: 6, medium: 40, large: 200 }[scale]);
  });

  it('(a) bills the idle warm endpoint around the clock at workers.min', () => {
    const fact = sim.account.planted.idleMinWorkersEndpoint;
    expect(fact.workersMin).toBeGreaterThan(0);
    for (let day = d0 - 14 * DAY; day < d0; day += DAY) {
      expect(daily('serverless', fact.id, day).gpuAmount).toBe(BigInt(Math.round(fact.workerPrice * 1e6)) * 24n * BigInt(fact.workersMin));
    }
  });

  it('(b) keeps one volume that no pod or endpoint mounts, billed every day', () => {
    const { id } = sim.account.planted.unattachedVolume;
    expect(sim.account.pods.some((p) => p.networkVolumeIds.includes(id))).toBe(false);
    expect(sim.account.endpoints.some((e) => e.networkVolumeIds.includes(id))).toBe(false);
    // 750 GB STANDARD under 1 TB: $0.07/GB/month over 730 h, rounded per hour
    expect(daily('network-volumes', id, d0 - DAY).standardAmount).toBe(BigInt(Math.round((750 * 0.07e6) / 730)) * 24n);
    const othersUnattached = sim.account.volumes.filter(
      (v) => v.id !== id && alive(v, v.deletedAt) &&
        !sim.account.pods.some((p) => alive(p, p.terminatedAt) && p.networkVolumeIds.includes(v.id)) &&
        !sim.account.endpoints.some((e) => alive(e, e.deletedAt) && e.networkVolumeIds.includes(v.id)),
    );
    expect(othersUnattached).toEqual([]);
  });

  it('(c) bills the EXITED pod’s volume at the stopped rate and nothing else', () => {
    const fact = sim.account.planted.exitedPodWithVolume;
    const day = daily('pods', fact.id, d0 - 2 * DAY);
    expect(day.gpuAmount).toBe(0n);
    expect(day.diskAmount).toBe(BigInt(Math.round((fact.volumeGb * 0.2e6) / 730)) * 24n);
    expect(daily('pods', fact.id, fact.stoppedAt.getTime() - 2 * DAY).gpuAmount).toBeGreaterThan(0n);
  });

  it('(d) runs a SECURE pod at list price on a GPU clearly cheaper on COMMUNITY', () => {
    const fact = sim.account.planted.secureCheaperOnCommunity;
    const pod = sim.account.pods.find((p) => p.id === fact.id)!;
    expect(pod.cloud).toBe('SECURE');
    const card = GPU_CATALOG.find((g) => g.id === fact.gpuTypeId)!;
    expect(card.price.community! / card.price.secure!).toBeLessThan(0.6);
    expect(daily('pods', fact.id, d0 - DAY).gpuAmount).toBe(BigInt(Math.round(card.price.secure! * 1e6)) * BigInt(fact.gpuCount) * 24n);
  });

  it('(e) has one day on which the spike endpoint costs ≥ 5× its weekday baseline', () => {
    const fact = sim.account.planted.spendSpike;
    const day = fact.day.getTime();
    expect(d0 - day).toBeGreaterThanOrEqual(9 * DAY);
    expect(d0 - day).toBeLessThanOrEqual(11 * DAY);
    const total = (t: number) => Number(daily('serverless', fact.id, t).totalAmount);
    const sameWeekday = [1, 2, 3, 4].map((w) => total(day - w * 7 * DAY));
    const baseline = sameWeekday.reduce((a, b) => a + b, 0) / sameWeekday.length;
    expect(total(day)).toBeGreaterThanOrEqual(5 * baseline);
    for (let t = day - 14 * DAY; t <= day + 7 * DAY; t += DAY) if (t !== day) expect(total(t)).toBeLessThan(total(day) / 4);
  });

  it('(f) has a terminated pod with bills in the last 60 days, gone from the inventory', () => {
    const fact = sim.account.planted.terminatedPod;
    expect(fact.terminatedAt.getTime()).toBeGreaterThan(d0 - 60 * DAY);
    expect(sim.ledger.sum({ source: 'pods', start: new Date(d0 - 60 * DAY), end: new Date(d0), resourceId: fact.id }).totalAmount).toBeGreaterThan(0n);
    expect(sim.ledger.sum({ source: 'pods', start: new Date(fact.terminatedAt.getTime() + 3_600_000), end: new Date(d0), resourceId: fact.id }).totalAmount).toBe(0n);
  });

  it('grows over time and dips at weekends', () => {
    const start = sim.account.historyStart.getTime();
    const first = sim.ledger.sum({ source: 'aggregate', start: new Date(start), end: new Date(start + 30 * DAY) }).totalAmount;
    const last = sim.ledger.sum({ source: 'aggregate', start: new Date(d0 - 30 * DAY), end: new Date(d0) }).totalAmount;
    expect(last).toBeGreaterThan(first);
    let weekday = 0;
    let weekend = 0;
    for (let t = d0 - 56 * DAY; t < d0; t += DAY) {
      const dow = new Date(t).getUTCDay();
      const amount = Number(daily('serverless', undefined, t).totalAmount);
      if (dow === 0 || dow === 6) weekend += amount / 16;
      else weekday += amount / 40;
    }
    expect(weekday).toBeGreaterThan(weekend * 1.1);
  });
});

describe('counts', () => {
  it('override the scale', async () => {
    const sim = await startSimulator({ now: NOW, scale: 'medium', counts: { pods: 20, endpoints: 3, volumes: 4, days: 60 } });
    try {
      expect(sim.account.pods.filter((p) => p.cluster === null)).toHaveLength(20);
      expect(sim.account.endpoints).toHaveLength(3);
      expect(sim.account.volumes).toHaveLength(4);
      expect(sim.account.historyStart.toISOString()).toBe('2026-09-21T00:00:00.000Z');
    } finally {
      await sim.close();
    }
  });

  it('refuse fewer resources or days than the planted facts need', async () => {
    await expect(startSimulator({ now: NOW, counts: { pods: 3 } })).rejects.toThrow('counts.pods must be an integer ≥ 5');
    await expect(startSimulator({ now: NOW, counts: { days: 10 } })).rejects.toThrow('counts.days must be an integer ≥ 40');
  });
});
