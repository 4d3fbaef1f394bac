// The scenario library of the judgement benchmark (src/simulator/scenarios/): each kind builds deterministically
// and fast, its labels agree with its own ledger (an event's resources really spend from its first day, a cadence
// really recurs, a month crosses the budget on the day its label says), and the simulator serves a scenario over
// HTTP – from TypeScript and from `gpuledger simulator --scenario KIND:SEED`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.ts';
import { createLedger } from '../../src/simulator/ledger/ledger.ts';
import { SCENARIO_KINDS, createScenario, type Scenario } from '../../src/simulator/scenarios/index.ts';
import type { LabelledResource } from '../../src/simulator/scenarios/labels.ts';
import { FAST_QUOTAS, KEY } from '../helpers/sync.ts';
import { gpuledger } from '../helpers/cli.ts';

const DAY = 86_400_000;
const KINDS = Object.keys(SCENARIO_KINDS);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

function truthOf(s: Scenario) {
  const ledger = createLedger(s.account, () => s.account.horizonEnd.getTime() + 2 * DAY, false);
  const spent = (rs: readonly LabelledResource[], day: number) =>
    rs.reduce((n, r) => n + ledger.sum({ source: r.source, start: new Date(day), end: new Date(day + DAY), resourceId: r.id }).totalAmount, 0n);
  const total = (from: number, to: number) => ledger.sum({ source: 'aggregate', start: new Date(from), end: new Date(to) }).totalAmount;
  return { ledger, spent, total };
}

describe.each(KINDS)('scenario kind %s', (kind) => {
  it('builds the same account, ledger and labels from the same seed, another from another seed, in well under a second', () => {
    const a = createScenario({ kind, seed: 2 });
    // timed on the second build (the first also pays for loading and compiling the modules), in CPU time: on a
    // machine shared with other work the wall clock measures the neighbours
    const cpu = process.cpuUsage();
    const b = createScenario({ kind, seed: 2 });
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
    const c = createScenario({ kind, seed: 3 });
    const window = [dayMs('2026-05-01'), dayMs('2026-11-01')] as const;
    expect(truthOf(a).total(...window)).toBe(truthOf(b).total(...window));
    expect(truthOf(a).total(...window)).not.toBe(truthOf(c).total(...window));
    expect(JSON.stringify(a.labels)).toBe(JSON.stringify(b.labels));
    expect(a.account.pods.map((p) => p.id)).toEqual(b.account.pods.map((p) => p.id));
  });

  it.each([1, 2])('labels events whose resources spend more from their first day than before they started (seed %i)', (seed) => {
    const s = createScenario({ kind, seed });
    const { spent } = truthOf(s);
    expect(s.labels.events.length).toBe(SCENARIO_KINDS[kind as keyof typeof SCENARIO_KINDS].events.length);
    for (const e of s.labels.events) {
      const before = spent(e.resources, dayMs(e.startDay) - DAY);
      const first = spent(e.resources, dayMs(e.firstDay));
      expect(`${e.kind} ${first > before}`).toBe(`${e.kind} true`);
      expect(e.firstDay >= e.startDay && e.dueBy > e.firstDay).toBe(true);
      expect(Number(e.impactPerDay) > 0 || e.mark === 'may').toBe(true);
    }
  });

  it('labels cadence jobs that recur every 5–10 days and spend on the days they start', () => {
    const s = createScenario({ kind, seed: 1 });
    const { spent } = truthOf(s);
    const cadences = s.labels.nonEvents.filter((n) => n.kind === 'cadence');
    expect(cadences.length).toBeGreaterThan(0);
    for (const c of cadences) {
      expect(c.days.length).toBeGreaterThan(10);
      const gaps = c.days.slice(1).map((d, i) => Math.round((dayMs(d) - dayMs(c.days[i]!)) / DAY));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(11);
      c.resources.forEach((r, i) => expect(spent([r], dayMs(c.days[i]!))).toBeGreaterThan(0n));
    }
  });

  it('says on which day each month crosses the budget, and some month does not', () => {
    const s = createScenario({ kind, seed: 1 });
    const { total } = truthOf(s);
    const budget = BigInt(Math.round(Number(s.labels.budget) * 100)) * 10_000n;
    for (const m of s.labels.months) {
      const start = dayMs(`${m.month}-01`);
      if (m.crossingDay === null) continue;
      expect(total(start, dayMs(m.crossingDay) + DAY)).toBeGreaterThanOrEqual(budget);
      expect(total(start, dayMs(m.crossingDay))).toBeLessThan(budget);
    }
    expect(s.labels.months.some((m) => m.crossingDay !== null)).toBe(true);
    expect(s.labels.months.some((m) => m.crossingDay === null)).toBe(true);
  });
});

describe('serving a scenario', () => {
  it('startSimulator({ scenario }) serves its ledger over HTTP with the clock at its end, labels beside it, no planted facts', async () => {
    const sim = await startSimulator({ scenario: { kind: 'left-on', seed: 2 }, quotas: FAST_QUOTAS });
    try {
      const s = createScenario({ kind: 'left-on', seed: 2 });
      expect(sim.now().toISOString()).toBe('2026-11-01T06:00:00.000Z');
      expect(sim.scenario).toEqual(s.labels);
      expect(() => sim.account.planted).toThrow(/no planted facts: read its labels/);
      const res = await fetch(`${sim.url}/v2/billing/pods?bucketSize=day&startTime=2026-10-01T00:00:00Z&endTime=2026-10-02T00:00:00Z`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { records: { totalAmount: number }[] };
      const served = body.records.reduce((n, r) => n + Math.round(r.totalAmount * 1e6), 0);
      const truth = truthOf(s).ledger.sum({ source: 'pods', start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-10-02T00:00:00Z') }).totalAmount;
      expect(BigInt(served)).toBe(truth);
    } finally {
      await sim.close();
    }
  });

  it('gpuledger simulator --scenario KIND:SEED answers /v2/billing with that scenario, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/gpuledger.js', 'simulator', '--port', '0', '--scenario', 'spike-and-leak:1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const m = /^simulator listening on (http:\/\/127\.0\.0\.1:\d+) \(scenario spike-and-leak:1, scale small, now 2026-11-01T06:00:00\.000Z, keys: sim-demo-key\)\n$/.exec(line.toString());
      expect(m).not.toBeNull();
      const res = await fetch(`${m![1]}/v2/billing?bucketSize=day&startTime=2026-07-01T00:00:00Z&endTime=2026-08-01T00:00:00Z`, { headers: { Authorization: 'Bearer sim-demo-key' } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { records: { totalAmount: number }[] };
      const served = body.records.reduce((n, r) => n + Math.round(r.totalAmount * 1e6), 0);
      const s = createScenario({ kind: 'spike-and-leak', seed: 1 });
      expect(BigInt(served)).toBe(truthOf(s).total(dayMs('2026-07-01'), dayMs('2026-08-01')));
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses an unknown kind or a malformed --scenario with one line and exit 2', async () => {
    const unknown = await gpuledger(['simulator', '--port', '0', '--scenario', 'nope:1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toMatch(/unknown scenario kind 'nope': one of spike-and-leak, left-on/);
    const malformed = await gpuledger(['simulator', '--port', '0', '--scenario', 'left-on']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/--scenario must be KIND:SEED/);
  });
});
