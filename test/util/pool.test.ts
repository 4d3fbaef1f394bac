import { describe, expect, it } from 'vitest';
import { forEachConcurrently } from '../../src/util/pool.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('forEachConcurrently', () => {
  it('keeps at most `limit` in flight and the results in the items\' order', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await forEachConcurrently([5, 1, 4, 2, 3, 0], 3, async (n) => {
      most = Math.max(most, ++inFlight);
      for (let i = 0; i < n; i++) await tick();
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(3);
  });

  it('rejects with the first failure after the others in flight settle, and starts no more', async () => {
    const started: number[] = [];
    const settled: number[] = [];
    const run = forEachConcurrently([1, 2, 3, 4], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 1) throw new Error('one failed');
      await tick();
      settled.push(n);
    });
    await expect(run).rejects.toThrow('one failed');
    expect(settled).toEqual([2]);
    expect(started).toEqual([1, 2]);
  });

  it('refuses a limit below 1 and handles no items', async () => {
    await expect(forEachConcurrently([1], 0, async () => 1)).rejects.toThrow(RangeError);
    await expect(forEachConcurrently([], 4, async () => 1)).resolves.toEqual([]);
  });
});
