// The largest metric value gpuledger accepts (MAX_METRIC_VALUE) computes through every view that divides cost by it:
// a unit cost per day, over seven days, and the nightly report's block – no DECIMAL or HUGEINT overflow (issue 18 §7).
import { describe, expect, it } from 'vitest';
import { evaluateUnitCost } from '../../src/alert/rules/unit-cost.ts';
import { unitCostRuleSchema } from '../../src/config/alerts.ts';
import { MAX_METRIC_VALUE } from '../../src/metrics/metric-rows.ts';
import { billPods, days, viewStoreForSuite } from '../helpers/view-store.ts';

describe('unit costs at the largest accepted metric value', () => {
  const DAYS = days('2026-10-01', 8);
  const store = viewStoreForSuite(async (store) => {
    await billPods(store, DAYS.map((start) => ({ pod: 'pod-1', start, gpu: '999999999.999999' })));
    for (const start of DAYS) {
      await store.run(`insert into raw_metrics values ('acme', $1::date, 'images', '', $2::decimal(38,6), 'm.csv', 2, 'load', now())`, [start.slice(0, 10), MAX_METRIC_VALUE]);
    }
  });

  it('computes the daily and the seven-day unit cost, exactly', async () => {
    const daily = await store.all<{ unit_cost: string }>(`select unit_cost::varchar as unit_cost from rpt_unit_cost where metric = 'images' order by day`);
    expect(daily).toHaveLength(8);
    // 999,999,999.999999 ÷ 999,999,999,999,999.999999, half up at the ninth decimal
    expect(daily[0]!.unit_cost).toBe('0.000001000');
    const weekly = await store.all<{ unit_cost: string }>(`select unit_cost::varchar as unit_cost from rpt_unit_cost_7d where metric = 'images' order by day`);
    expect(weekly.at(-1)!.unit_cost).toBe('0.000001000');
    expect(await store.one(`select count(*)::varchar as n from rpt_unit_cost_daily where quantity = ${MAX_METRIC_VALUE}`)).toEqual({ n: '8' });
  });

  it('lets the unit-cost alert evaluate it: a steady cost per unit raises nothing', async () => {
    await store.run(`set variable gpuledger_as_of = '2026-10-09T06:00:00Z'`);
    expect(await evaluateUnitCost(store, unitCostRuleSchema.parse({}))).toEqual([]);
  });
});
