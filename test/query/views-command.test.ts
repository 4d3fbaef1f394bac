import { describe, expect, it } from 'vitest';
import { gpuledger } from './cli.ts';

describe('gpuledger views', () => {
  it('lists the public views with what one row is, leaving out the int_* building blocks', async () => {
    const r = await gpuledger(['views', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    const views = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { view: string; layer: string; description: string });
    const names = views.map((v) => v.view);
    for (const name of ['billing_pods', 'stg_pods', 'cost', 'cost_daily', 'report_clock', 'dim_resource', 'focus_cost', 'rpt_waste', 'rpt_month_forecast']) {
      expect(names).toContain(name);
    }
    expect(names.filter((n) => n.startsWith('int_'))).toEqual([]);
    expect(views.find((v) => v.view === 'cost')).toMatchObject({ layer: 'marts', description: expect.stringMatching(/^One row per billing record/) });
    expect(views.every((v) => v.description.length > 10 && !v.description.includes('\n'))).toBe(true);
  });
});
