// The newest-first planner: windows sized from the resources an answer covered (metadata.unique*Count), growing with
// the window for a dense grid, and an interrupted newest-first backfill read again from its start.
import { describe, expect, it } from 'vitest';
import { chunkEndingAt, learnFromAnswer, planRange } from '../../src/extract/window-plan.ts';
import { addBuckets } from '../../src/util/buckets.ts';

const END = new Date('2026-11-20T00:00:00Z');
const START = addBuckets(END, 'day', -365);

describe('chunkEndingAt', () => {
  it('takes as many days back from the end as the resources fill the bound', () => {
    const c = chunkEndingAt(START, END, 'day', { alive: 500, churn: 0, fill: 1 }, 50_000);
    expect(c.end).toEqual(END);
    expect(c.buckets).toBe(95); // 500 × 95 = 47,500 = 95 % of the bound
    expect(c.start).toEqual(addBuckets(END, 'day', -95));
  });

  it('shortens the window for resources that end inside it, as a dense grid bills them for every bucket', () => {
    const c = chunkEndingAt(START, END, 'day', { alive: 500, churn: 2, fill: 1 }, 50_000);
    // (500 + 2B)·B ≤ 47,500
    expect((500 + 2 * c.buckets) * c.buckets).toBeLessThanOrEqual(47_500);
    expect((500 + 2 * (c.buckets + 1)) * (c.buckets + 1)).toBeGreaterThan(47_500);
  });

  it('never reaches before the range start, and takes at least one bucket', () => {
    expect(chunkEndingAt(START, END, 'day', { alive: 1, churn: 0, fill: 1 }, 50_000).start).toEqual(START);
    expect(chunkEndingAt(START, END, 'day', { alive: 1e9, churn: 0, fill: 1 }, 50_000).buckets).toBe(1);
  });
});

describe('learnFromAnswer', () => {
  it('learns churn from the resources beyond those alive at the window end, and carries the rest back', () => {
    const m = learnFromAnswer({ alive: 480, churn: 0, fill: 1 }, 76, 625 * 76, 625);
    expect(m.churn).toBeCloseTo(145 / 76);
    expect(m.alive).toBeCloseTo(480);
    expect(m.fill).toBe(1);
  });

  it('keeps the churn it learned when a quieter window follows, so the next window cannot overflow on it', () => {
    const m = learnFromAnswer({ alive: 480, churn: 2, fill: 1 }, 50, 300 * 50, 300);
    expect(m.churn).toBe(2);
    expect(m.alive).toBe(200);
  });

  it('takes a sparse answer’s fill, and an answer without ids as one record per bucket', () => {
    expect(learnFromAnswer({ alive: 100, churn: 0, fill: 1 }, 10, 500, 100).fill).toBe(0.5);
    expect(learnFromAnswer({ alive: 1, churn: 0, fill: 1 }, 365, 365, undefined)).toEqual({ alive: 1, churn: 0, fill: 1 });
  });
});

describe('planRange after a newest-first backfill', () => {
  const input = { source: 'pods' as const, plan: { size: 'day' as const }, now: END, config: { start: 'P365D', lookbackBuckets: 3 } };

  it('reads the backfill again from its start when it was killed before its oldest windows', () => {
    const range = planRange({ ...input, watermark: { loadedFrom: addBuckets(END, 'day', -100), loadedThrough: END, completeThrough: addBuckets(END, 'day', -3) } });
    expect(range?.start).toEqual(addBuckets(END, 'day', -365));
    expect(range?.reason).toBe('backfill');
  });

  it('reads only the lookback once the backfill reached its start', () => {
    const range = planRange({ ...input, watermark: { loadedFrom: addBuckets(END, 'day', -365), loadedThrough: END, completeThrough: addBuckets(END, 'day', -3) } });
    expect(range?.start).toEqual(addBuckets(END, 'day', -3));
    expect(range?.reason).toBe('incremental');
  });
});
