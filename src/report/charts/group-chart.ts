// A chart of how a set of groups (families, templates, resources, components) spent day by day over a period: stacked
// bars, the largest groups each in their colour and the rest together as "Other", so the chart stays readable however
// many groups a level has. The drill-down pages draw one over every level.
import { FAMILIES } from '../../model/index.ts';
import { daysFromTo } from '../../util/utc-days.ts';
import { familyColor } from './axes.ts';
import type { Markup } from '../../present/index.ts';
import { stackedBarsChart, type ChartSize, type StackedBarsData } from './svg.ts';

export interface GroupDay {
  day: string;
  group: string;
  /** Plotted positions only: the exact figures are in the table beside the chart. */
  amount: number;
}

/** Groups shown on their own; the rest are "Other". */
export const CHART_GROUPS = 7;

export function groupChartData(rows: readonly GroupDay[], period: { start: string; end: string }, label: (group: string) => string = (g) => g): StackedBarsData {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.group, (totals.get(r.group) ?? 0) + r.amount);
  // families keep the model's order (their colours match the report's chart); other groups go largest first
  const families = [...totals.keys()].every((g) => (FAMILIES as readonly string[]).includes(g));
  const order = [...totals.keys()].sort((a, b) => (families ? FAMILIES.indexOf(a as never) - FAMILIES.indexOf(b as never) : totals.get(b)! - totals.get(a)! || a.localeCompare(b)));
  const shown = new Set(order.slice(0, CHART_GROUPS));
  const days = daysFromTo(period.start, period.end);
  const at = new Map(days.map((d, i) => [d, i]));
  // the rest under a key no group can have (a template may well be called "Other")
  const REST = '\u0000rest';
  const series = new Map<string, number[]>();
  for (const g of [...order.filter((g) => shown.has(g)), ...(order.length > shown.size ? [REST] : [])]) series.set(g, new Array<number>(days.length).fill(0));
  for (const r of rows) {
    const i = at.get(r.day.slice(0, 10));
    if (i === undefined) continue;
    series.get(shown.has(r.group) ? r.group : REST)![i]! += r.amount;
  }
  if (rows.length === 0) return { days: [], series: [] };
  return { days, series: [...series].map(([g, values]) => ({ label: g === REST ? `Other (${order.length - shown.size})` : label(g), values, color: families && g !== REST ? familyColor(g) : undefined })) };
}

export function groupChartSvg(title: string, data: StackedBarsData, size: ChartSize = { width: 1100, height: 320, font: 'sans-serif' }): Markup {
  return stackedBarsChart(title, data, size);
}
