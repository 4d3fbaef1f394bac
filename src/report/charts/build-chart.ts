// A chart of the definition: run its SQL, shape the rows for the SVG builder, render the PNG. Chart values are
// plotted positions, not sums shown to anyone, so DECIMAL strings become numbers here.
import type { Store } from '../../store/database.ts';
import { ReportDefinitionError, type ChartDefinition } from '../definition/index.ts';
import { daysFromTo } from '../../util/utc-days.ts';
import { queryAll, type QueryParameters, type QueryResult } from '../query.ts';
import { renderPng, type ChartFont } from './png.ts';
import { familyColor } from './axes.ts';
import type { Markup } from '../../present/index.ts';
import { cumulativeChart, stackedBarsChart, type CumulativeData, type StackedBarsData } from './svg.ts';
import { FAMILIES } from '../../model/index.ts';
import { columnHeading } from '../cells/index.ts';

export interface RenderedChart {
  id: string;
  title: string;
  png: Buffer;
  /** The chart for a page (present's `svg` escaped its labels). */
  chart: Markup;
  /** The same chart as an SVG file's text: what the PNG was rasterised from. */
  svg: string;
  width: number;
  height: number;
  email: boolean;
  sql: string;
}

// the model's family order (src/model/cost-families.ts), so colours stay put from one day's workbook to the next
const SERIES_ORDER: readonly string[] = FAMILIES;

function column(result: QueryResult, field: string | undefined, where: string, key: string): number {
  if (field === undefined) return -1;
  const i = result.columns.findIndex((c) => c.name === field);
  if (i < 0) {
    throw new ReportDefinitionError(`${where}.${key}: the chart query has no column '${field}' (it has ${result.columns.map((c) => c.name).join(', ')})`);
  }
  return i;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const day = (v: unknown): string => String(v).slice(0, 10);

export function stackedBarsData(def: ChartDefinition, result: QueryResult, where: string): StackedBarsData {
  const [xi, si, vi] = [column(result, def.x, where, 'x'), column(result, def.series, where, 'series'), column(result, def.value, where, 'value')];
  const byDay = new Map<string, Map<string, number>>();
  for (const r of result.rows) {
    const d = day(r[xi]);
    const s = String(r[si] ?? '(none)');
    const m = byDay.get(d) ?? new Map<string, number>();
    m.set(s, (m.get(s) ?? 0) + (num(r[vi]) ?? 0));
    byDay.set(d, m);
  }
  const present = [...byDay.keys()].sort();
  if (present.length === 0) return { days: [], series: [] };
  const days = daysFromTo(present[0]!, present.at(-1)!);
  const names = [...new Set(result.rows.map((r) => String(r[si] ?? '(none)')))].sort((a, b) => {
    const [ia, ib] = [SERIES_ORDER.indexOf(a), SERIES_ORDER.indexOf(b)];
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  // families in their own colours only when the series are families (a template may be called 'pod')
  const families = names.every((name) => SERIES_ORDER.includes(name));
  return {
    days,
    series: names.map((name) => ({ label: columnHeading(name), values: days.map((d) => byDay.get(d)?.get(name) ?? 0), color: families ? familyColor(name) : undefined })),
  };
}

export function cumulativeData(def: ChartDefinition, result: QueryResult, where: string): CumulativeData {
  const idx = {
    x: column(result, def.x, where, 'x'),
    actual: column(result, def.actual, where, 'actual'),
    forecast: column(result, def.forecast, where, 'forecast'),
    low: column(result, def.low, where, 'low'),
    high: column(result, def.high, where, 'high'),
    budget: column(result, def.budget, where, 'budget'),
  };
  const rows = [...result.rows].sort((a, b) => day(a[idx.x]).localeCompare(day(b[idx.x])));
  const pick = (i: number) => rows.map((r) => (i < 0 ? null : num(r[i])));
  const budget = idx.budget < 0 ? null : (rows.map((r) => num(r[idx.budget])).find((v) => v !== null) ?? null);
  const si = column(result, def.subject, where, 'subject');
  const subject = si < 0 ? undefined : rows.map((r) => r[si]).find((v) => v !== null && v !== undefined && v !== '');
  return {
    subject: subject === undefined ? undefined : String(subject),
    days: rows.map((r) => day(r[idx.x])),
    actual: pick(idx.actual),
    forecast: pick(idx.forecast),
    low: pick(idx.low),
    high: pick(idx.high),
    budget,
  };
}

export async function buildChart(store: Store, def: ChartDefinition, params: QueryParameters, font: ChartFont, where: string): Promise<RenderedChart> {
  const result = await queryAll(store, def.sql, params, where);
  const size = { width: def.width, height: def.height, font: font.family };
  let title = def.title;
  let chart: Markup;
  if (def.kind === 'stacked_bars') chart = stackedBarsChart(title, stackedBarsData(def, result, where), size);
  else {
    const data = cumulativeData(def, result, where);
    // "against forecast and budget" only when a budget is configured: a title must not promise a line that is not drawn
    if (data.budget !== null && def.titleWithBudget !== undefined) title = def.titleWithBudget;
    // a line of one metric and scope among several says which (the Unit costs chart named neither)
    if (data.subject !== undefined && def.titleWithSubject !== undefined) title = def.titleWithSubject.replaceAll('{subject}', data.subject);
    chart = cumulativeChart(title, data, size);
  }
  return { id: def.id, title, chart, svg: chart.text, png: renderPng(chart.text, font), width: def.width, height: def.height, email: def.email, sql: def.sql };
}
