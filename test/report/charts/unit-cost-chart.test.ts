// The nightly report's Unit costs chart names what it draws (issue 38: its title and legend named no metric and no
// scope): the chart's own SQL from reports/nightly.yaml over a synced account, with the metric and scope it picks in
// the title and the legend – GPU-hours of the whole account as synced, and images of one endpoint when that is the
// costliest metric (a temp rpt_unit_cost_daily shadows the view, as an as-of back-test shadows the raw tables). A
// unit cost below a dollar is labelled to four decimals, not as $0.00.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChart } from '../../../src/report/charts/build-chart.ts';
import { findChartFont } from '../../../src/report/charts/png.ts';
import { loadReportDefinition } from '../../../src/report/definition/index.ts';
import { resetReportVariables, setReportClock } from '../../../src/report/period/report-clock.ts';
import type { Store } from '../../../src/store/database.ts';
import { syncedStore } from '../../helpers/synced-fixture.ts';
import type { TempDir } from '../../helpers/temp-dir.ts';

const chartDef = () => {
  const sheet = loadReportDefinition('nightly', undefined).sheets.find((s) => s.name === 'Unit costs');
  const chart = sheet?.kind === 'summary' ? sheet.charts.find((c) => c.id === 'unit_cost_trend') : undefined;
  if (!chart) throw new Error('nightly.yaml has no unit_cost_trend chart on its Unit costs sheet');
  return chart;
};

const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

describe('the Unit costs chart names its metric and scope', () => {
  let tmp: TempDir & { store: Store };
  beforeAll(async () => {
    tmp = await syncedStore('gpuledger-unit-chart-');
  }, 120_000);
  afterAll(async () => {
    await tmp?.store.close();
    tmp?.cleanup();
  });

  async function draw() {
    const clock = await setReportClock(tmp.store, { periodText: '2026-11', defaultPeriod: 'month_to_date', budgetMonthly: undefined });
    try {
      return await buildChart(tmp.store, chartDef(), clock.params, findChartFont(), 'nightly.yaml: Unit costs');
    } finally {
      await resetReportVariables(tmp.store);
    }
  }

  it('the synced account\'s costliest is GPU-hours of the whole account: the title and the legend say so', async () => {
    const chart = await draw();
    expect(chart.title).toBe('Cost per GPU-hour, whole account (account sim), trailing 7 days');
    const drawn = texts(chart.svg);
    expect(drawn[0]).toBe(chart.title);
    expect(drawn).toContain('Cost per GPU-hour, whole account (account sim)');
    expect(drawn).not.toContain('Actual');
  });

  it('an imported metric of one endpoint is a cost per one of it, and a cost below a dollar keeps its decimals', async () => {
    await tmp.store.run(
      `create temp table rpt_unit_cost_daily as
       select * replace ('images' as metric, 'endpoint:sdxl-image-api' as scope, unit_cost / 1000 as unit_cost, unit_cost_7d / 1000 as unit_cost_7d)
       from main.rpt_unit_cost_daily where metric = 'gpu_hours' and scope = ''`,
    );
    try {
      const chart = await draw();
      expect(chart.title).toBe('Cost per image, endpoint sdxl-image-api (account sim), trailing 7 days');
      // the line's last value, and the axis above its zero, to a tenth of a cent or finer
      const last = /<text[^>]*font-size="11" font-weight="bold"[^>]*>([^<]*)<\/text>/.exec(chart.svg)![1]!;
      expect(last).toMatch(/^\$0\.\d{3,4}$/);
      const ticks = texts(chart.svg).filter((t) => t.startsWith('$') && t !== last && t !== '$0.00');
      expect(ticks.length).toBeGreaterThan(0);
      for (const tick of ticks) expect(tick).toMatch(/^\$0\.\d{3,4}$/);
    } finally {
      await tmp.store.run('drop table temp.rpt_unit_cost_daily');
    }
  });
});
