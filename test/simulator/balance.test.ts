// GraphQL myself balance fields (balance-and-queue.md §1): the balance is the top-ups minus what the ledger billed,
// to the micro-dollar, at any simulated now; the planted low-balance moment has a runway under a day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { numberToMicros } from '../../src/util/decimal.ts';
import { graphql, NOW } from '../helpers/simulator-http.ts';

const QUERY = `query { myself { clientBalance currentSpendPerHr spendLimit underBalance minBalance
  stripeReloadHistory { amount transactionCompletedAt type medium } } }`;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ now: NOW });
});
afterAll(() => sim.close());

async function myself(s: Simulator) {
  const { status, body } = await graphql(s, QUERY);
  expect(status).toBe(200);
  return body.data.myself;
}

function expectedBalanceMicros(s: Simulator): bigint {
  const now = s.now().getTime();
  const toppedUp = s.balance.schedule().filter((r) => r.at.getTime() <= now).reduce((sum, r) => sum + BigInt(r.amountMicros), 0n);
  return toppedUp - s.ledger.sum({ source: 'aggregate', start: s.account.historyStart, end: s.now() }).totalAmount;
}

describe('GraphQL balance', () => {
  it('answers top-ups minus everything billed up to now, to the micro-dollar, and the reload history so far', async () => {
    for (const at of [NOW, '2026-10-03T07:20:00Z', '2026-11-18T09:30:00Z']) {
      sim.setNow(at);
      const m = await myself(sim);
      expect(numberToMicros(m.clientBalance)).toBe(expectedBalanceMicros(sim));
      const visible = sim.balance.schedule().filter((r) => r.at <= sim.now());
      expect(m.stripeReloadHistory).toHaveLength(visible.length);
      const listed = m.stripeReloadHistory.reduce((s: bigint, r: { amount: number }) => s + numberToMicros(r.amount), 0n);
      expect(listed).toBe(visible.reduce((s, r) => s + BigInt(r.amountMicros), 0n));
      expect(m.spendLimit).toBe(80);
      expect(m.currentSpendPerHr).toBeGreaterThan(0);
      expect(m.underBalance).toBe(m.clientBalance < m.currentSpendPerHr);
    }
    sim.setNow(NOW);
  });

  it('has a planted low-balance moment: under a day of runway, then a top-up', async () => {
    const low = sim.balance.lowPoint()!;
    expect(low).not.toBeNull();
    sim.setNow(new Date(low.at.getTime() - 60_000));
    const before = await myself(sim);
    expect(before.clientBalance).toBeGreaterThan(0);
    expect(before.clientBalance / before.currentSpendPerHr).toBeLessThan(24);
    sim.setNow(new Date(low.topUpAt.getTime() + 60_000));
    const after = await myself(sim);
    expect(after.stripeReloadHistory).toHaveLength(before.stripeReloadHistory.length + 1);
    expect(after.clientBalance / after.currentSpendPerHr).toBeGreaterThan(72);
    sim.setNow(NOW);
  });

  it('never changes a completed top-up: the same reload history at a later now, and after a restart with the same anchor', async () => {
    sim.setNow('2026-11-10T12:00:00Z');
    const first = (await myself(sim)).stripeReloadHistory;
    sim.setNow('2026-11-19T12:00:00Z');
    const movedClock = (await myself(sim)).stripeReloadHistory;
    sim.setNow(NOW);
    // a second simulator started later (as the demo is, night after night) from the same seed and anchor
    const later = await startSimulator({ now: '2026-12-03T08:15:00Z', anchor: NOW });
    try {
      const restarted = (await myself(later)).stripeReloadHistory;
      const byTime = (list: { transactionCompletedAt: string }[]) => [...list].sort((a, b) => a.transactionCompletedAt.localeCompare(b.transactionCompletedAt));
      expect(first.length).toBeGreaterThan(1);
      expect(byTime(movedClock).slice(0, first.length)).toEqual(byTime(first));
      expect(byTime(restarted).slice(0, movedClock.length)).toEqual(byTime(movedClock));
      expect(restarted.length).toBeGreaterThanOrEqual(movedClock.length);
      // without the anchor, a later start is another account: the guard that the anchor is what keeps the past
      const unanchored = await startSimulator({ now: '2026-12-03T08:15:00Z' });
      try {
        expect(byTime((await myself(unanchored)).stripeReloadHistory).slice(0, first.length)).not.toEqual(byTime(first));
      } finally {
        await unanchored.close();
      }
    } finally {
      await later.close();
    }
  });

  it('serves a post-paid account: minus what was billed since the month began, no top-ups, spending on – and $0.00 at the month start', async () => {
    const postpaid = await startSimulator({ now: NOW, postpaid: true });
    try {
      for (const at of [NOW, '2026-11-03T07:20:00Z', '2026-10-18T09:30:00Z']) {
        postpaid.setNow(at);
        const m = await myself(postpaid);
        const cycle = new Date(Date.UTC(postpaid.now().getUTCFullYear(), postpaid.now().getUTCMonth(), 1));
        const billed = postpaid.ledger.sum({ source: 'aggregate', start: cycle, end: postpaid.now() }).totalAmount;
        expect(billed).toBeGreaterThan(0n);
        expect(numberToMicros(m.clientBalance)).toBe(-billed);
        expect(m.stripeReloadHistory).toEqual([]);
        expect(m.currentSpendPerHr).toBeGreaterThan(0);
      }
      postpaid.setNow('2026-11-01T00:00:00Z');
      expect((await myself(postpaid)).clientBalance).toBe(0);
      postpaid.setNow(NOW);
      sim.setNow(NOW);
      // the same account made prepaid bills exactly the same: post-paid changes what the balance reads, not what runs
      expect(postpaid.ledger.sum({ source: 'aggregate', start: postpaid.account.historyStart, end: new Date(NOW) }).totalAmount).toBe(
        sim.ledger.sum({ source: 'aggregate', start: sim.account.historyStart, end: new Date(NOW) }).totalAmount,
      );
      expect(postpaid.balance.lowPoint()).toBeNull();
    } finally {
      await postpaid.close();
    }
  });

  it('serves a post-paid account beside a prepaid one, each behind its key', async () => {
    const both = await startSimulator({ now: NOW, accounts: [{ key: 'invoiced-key', seed: 7, postpaid: true }] });
    try {
      expect(both.accountOf('invoiced-key').balance.at(both.now().getTime()).balanceMicros).toBeLessThan(0);
      expect(both.balance.at(both.now().getTime()).balanceMicros).toBeGreaterThan(0);
    } finally {
      await both.close();
    }
  });

  it('still refuses unknown fields, and fields it was told not to know, as graphql-js does', async () => {
    const unknown = await graphql(sim, 'query { myself { clientBalance creditAlertThreshold } }');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toBe('Cannot query field "creditAlertThreshold" on type "User".');
    const older = await startSimulator({ now: NOW, unknownGraphqlFields: ['stripeReloadHistory'] });
    try {
      const { status, body } = await graphql(older, QUERY);
      expect(status).toBe(400);
      expect(body.errors.map((e: { message: string }) => e.message)).toEqual(['Cannot query field "stripeReloadHistory" on type "User".']);
    } finally {
      await older.close();
    }
  });
});
