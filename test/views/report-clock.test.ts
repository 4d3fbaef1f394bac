import { describe, expect, it } from 'vitest';
import { setWatermark, viewStoreEachTest } from '../helpers/view-store.ts';

describe('report_clock', () => {
  const store = viewStoreEachTest();

  const clock = () =>
    store.one(
      `select as_of::varchar as as_of, as_of_date::varchar as as_of_date, month_start::varchar as month_start,
              next_month_start::varchar as next_month_start, prev_month_start::varchar as prev_month_start,
              day_of_month, days_in_month
       from report_clock`,
    );

  it('uses gpuledger_as_of when it is set', async () => {
    await setWatermark(store, { source: 'pods', size: 'day', from: '2026-01-01T00:00:00Z', through: '2026-10-20T00:00:00Z' });
    await store.run(`set variable gpuledger_as_of = '2026-03-15T23:30:00-05:00'`);
    expect(await clock()).toEqual({
      as_of: '2026-03-16 04:30:00+00',
      as_of_date: '2026-03-16',
      month_start: '2026-03-01',
      next_month_start: '2026-04-01',
      prev_month_start: '2026-02-01',
      day_of_month: 16,
      days_in_month: 31,
    });
  });

  it('falls back to the latest billing watermark, ignoring inventory', async () => {
    await setWatermark(store, { source: 'pods', size: 'hour', from: '2026-01-01T00:00:00Z', through: '2026-02-10T07:00:00Z' });
    await setWatermark(store, { source: 'aggregate', size: 'day', from: '2026-01-01T00:00:00Z', through: '2026-02-09T00:00:00Z' });
    await setWatermark(store, { source: 'inventory', size: '', from: '2026-01-01T00:00:00Z', through: '2026-12-31T00:00:00Z' });
    expect(await clock()).toMatchObject({ as_of: '2026-02-10 07:00:00+00', as_of_date: '2026-02-10', day_of_month: 10, days_in_month: 28 });
  });

  it('falls back to now() on an empty database', async () => {
    const row = await store.one<{ as_of: string; lag: string }>(`select as_of::varchar as as_of, epoch(now()) - epoch(as_of) as lag from report_clock`);
    expect(Math.abs(Number(row!.lag))).toBeLessThan(60);
  });
});
