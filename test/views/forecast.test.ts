import { describe, expect, it } from 'vitest';
import { billPods, days, viewStoreForSuite } from '../helpers/view-store.ts';

// a known weekday shape (weekdays 100, weekends 40) with deterministic noise of a few dollars
const noise = (i: number) => ((i * 7919) % 11) - 5;
const spendOn = (day: string, i: number) => {
  const weekday = new Date(day).getUTCDay();
  return (weekday === 0 || weekday === 6 ? 40 : 100) + noise(i);
};
const HISTORY = days('2026-08-01', 92); // 2026-08-01 … 2026-10-31
const AS_OF = '2026-10-15T12:00:00Z';

describe('rpt_month_forecast and rpt_month_cumulative', () => {
  let actualOctober = 0;
  let actualSeptemberTo15 = 0;

  const store = viewStoreForSuite(async (store) => {
    const bills = [];
    for (const [i, day] of HISTORY.entries()) {
      const amount = spendOn(day, i);
      if (day.startsWith('2026-10')) actualOctober += amount;
      if (day >= '2026-09-01' && day < '2026-09-16') actualSeptemberTo15 += amount;
      if (day < '2026-10-15') bills.push({ pod: 'p1', start: day, gpu: amount.toFixed(6) });
    }
    // the open day: half of it billed by as_of, hour by hour
    const today = spendOn('2026-10-15T00:00:00.000Z', HISTORY.indexOf('2026-10-15T00:00:00.000Z'));
    for (let h = 0; h < 12; h++) {
      bills.push({ pod: 'p1', size: 'hour', start: `2026-10-15T${String(h).padStart(2, '0')}:00:00Z`, gpu: (today / 24).toFixed(6) });
    }
    await billPods(store, bills);
    await store.run(`set variable gpuledger_as_of = '${AS_OF}'`);
  });

  it('forecasts the month end by weekday and the real month lands inside the range', async () => {
    const rows = await store.all<Record<string, string | number>>(`select * from rpt_month_forecast order by family`);
    expect(rows.map((r) => r.family)).toEqual(['all', 'pod']);
    const pod = rows[1]!;
    expect(pod).toMatchObject({ month_start: '2026-10-01', days_elapsed: 15, days_in_month: 31 });
    const [low, forecast, high] = [pod.forecast_low, pod.forecast, pod.forecast_high].map(Number) as [number, number, number];
    expect(low).toBeLessThan(forecast);
    expect(high).toBeGreaterThan(forecast);
    expect(actualOctober).toBeGreaterThanOrEqual(low);
    expect(actualOctober).toBeLessThanOrEqual(high);
    // weekday seasonality: a flat daily average would miss the weekday/weekend split; the forecast is within 2 %
    expect(Math.abs(forecast - actualOctober) / actualOctober).toBeLessThan(0.02);
    expect(Number(pod.previous_month_same_day)).toBeCloseTo(actualSeptemberTo15, 6);
    expect(rows[0]).toMatchObject({ forecast: pod.forecast, month_to_date: pod.month_to_date });
  });

  it('draws the month cumulatively: actual days, then the forecast path ending at the forecast', async () => {
    const rows = await store.all<Record<string, string | boolean | null>>(`select * from rpt_month_cumulative order by day`);
    expect(rows).toHaveLength(31);
    expect(rows.slice(0, 15).every((r) => r.is_forecast === false && r.cumulative_amount !== null)).toBe(true);
    expect(rows.slice(15).every((r) => r.is_forecast === true && r.amount === null && r.cumulative_amount === null)).toBe(true);
    expect(rows[13]!.forecast_cumulative).toBeNull();
    const [forecast] = await store.all<{ forecast: string; forecast_low: string; forecast_high: string }>(
      `select forecast, forecast_low, forecast_high from rpt_month_forecast where family = 'all'`,
    );
    expect(rows[30]).toMatchObject({
      forecast_cumulative: forecast!.forecast,
      forecast_low_cumulative: forecast!.forecast_low,
      forecast_high_cumulative: forecast!.forecast_high,
    });
    const path = rows.slice(14).map((r) => Number(r.forecast_cumulative));
    expect(path).toEqual([...path].sort((a, b) => a - b));
  });

  it('gives no forecast for a series without a complete day of history', async () => {
    await billPods(store, [{ account: 'new', pod: 'p9', size: 'hour', start: '2026-10-15T03:00:00Z', gpu: '1.000000' }]);
    const row = await store.one(`select month_to_date, forecast, forecast_low, forecast_high from rpt_month_forecast where account = 'new' and family = 'pod'`);
    expect(row).toEqual({ month_to_date: '1.000000', forecast: null, forecast_low: null, forecast_high: null });
  });
});

// What a newcomer saw on the demo (issue 36): a level shift a week old was forecast at its 28-day weekday mean – a
// quarter of what it spends –, and a pod stopped five days ago was forecast to go on. The forecast follows what runs.
describe('rpt_month_forecast follows what is running at the last complete day', () => {
  const AS_OF_RUNNING = '2026-10-15T00:00:00Z';
  const weekend = (day: string) => [0, 6].includes(new Date(day).getUTCDay());
  const spends = {
    fleet: (day: string) => (day >= '2026-08-01' ? 50 : 0),
    // started a week ago, runs on
    shift: (day: string) => (day >= '2026-10-08' ? 200 : 0),
    // ran for ten weeks, stopped on 10 October
    ended: (day: string) => (day >= '2026-08-01' && day < '2026-10-10' ? 100 : 0),
    // a machine used on weekdays only
    dev: (day: string) => (day >= '2026-08-01' && !weekend(day) ? 30 : 0),
  };
  const store = viewStoreForSuite(async (store) => {
    const bills = [];
    for (const day of days('2026-08-01', 75)) {
      for (const [pod, spend] of Object.entries(spends)) {
        const amount = spend(day);
        if (amount > 0) bills.push({ account: 'running', pod, start: day, gpu: amount.toFixed(6) });
      }
    }
    await billPods(store, bills);
    await store.run(`set variable gpuledger_as_of = '${AS_OF_RUNNING}'`);
  });

  it('goes on with the running pods at their own rates, weekday machines on weekdays, and drops the one that ended', async () => {
    const row = await store.one<{ month_to_date: string; forecast: string; forecast_low: string; forecast_high: string; forecast_method: string }>(
      `select month_to_date, forecast, forecast_low, forecast_high, forecast_method from rpt_month_forecast where account = 'running' and family = 'pod'`,
    );
    // what the rest of October costs if what runs now goes on: 15–31 October
    let toCome = 0;
    for (const day of days('2026-10-15', 17)) toCome += spends.fleet(day) + spends.shift(day) + spends.dev(day);
    const expected = Number(row!.month_to_date) + toCome;
    expect(Math.abs(Number(row!.forecast) - expected) / expected).toBeLessThan(0.03);
    // the method it replaced – each weekday's mean over the last 28 days – misses by more than a tenth
    const total = (day: string) => Object.values(spends).reduce((sum, spend) => sum + spend(day), 0);
    let weekdayMeans = 0;
    for (const day of days('2026-10-15', 17)) {
      const t = new Date(day).getTime();
      weekdayMeans += [7, 14, 21, 28].reduce((sum, back) => sum + total(new Date(t - back * 86_400_000).toISOString()), 0) / 4;
    }
    expect(Math.abs(Number(row!.month_to_date) + weekdayMeans - expected) / expected).toBeGreaterThan(0.1);
    expect(Number(row!.forecast_low)).toBeLessThanOrEqual(Number(row!.forecast));
    expect(Number(row!.forecast_high)).toBeGreaterThanOrEqual(Number(row!.forecast));
    expect(row!.forecast_method).toBe('running resources + new-work rate');
  });
});
