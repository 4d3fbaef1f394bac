// An answer's chart: its groups stacked over its periods with the matching budgets and the anomaly days, drawn by
// chart.ts. The /explore page and a saved view's report page and workbook draw the same chart from the same answer.
import type { Markup } from '../present/index.ts';
import { familyColor } from '../report/charts/axes.ts';
import { exploreChartSvg } from './chart.ts';
import { partialMark } from './coverage-marks.ts';
import type { ExploreAnswer } from './run-explore.ts';
import { dimensionLabel, metricName } from './view-text.ts';

export function answerChartSeries(a: ExploreAnswer) {
  const r = a.request;
  // grouped by family alone, each family keeps the colour it has on the report's and the drill-down's charts
  const byFamily = r.by.length === 1 && r.by[0]!.kind === 'plain' && r.by[0]!.name === 'family';
  return a.table.groups.map((g) => ({
    label: g.keys.length === 0 ? 'Other' : g.keys.map((k, i) => g.names[i] ?? k).join(' · '),
    values: g.cells.map((c) => (c === null ? 0 : Number(c))),
    other: g.keys.length === 0,
    color: byFamily && g.keys[0] !== undefined ? familyColor(g.keys[0]) : undefined,
  }));
}

export function answerChartSvg(a: ExploreAnswer): Markup {
  const r = a.request;
  return exploreChartSvg({
    title: `${metricName(r)} by ${r.by.map(dimensionLabel).join(' and ')}, per ${r.granularity}`,
    periods: a.table.periods,
    series: answerChartSeries(a),
    budgets: a.budgets,
    anomalies: a.anomalies,
    unit: r.metric === 'gpu_hours' ? 'hours' : 'usd',
    partial: a.coverage.map((p) => partialMark(p, r.granularity)),
  });
}
