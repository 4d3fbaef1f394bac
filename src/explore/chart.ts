// The explorer's chart: the groups stacked per period (the top 10 and "other", as the table below), a budget of the
// config drawn as a line where it watches exactly this view (budgets.ts), and the days an anomaly alert fired on
// marked under the axis with the alert's title as the tooltip. Plain SVG from the report's chart parts
// (report/charts/axes.ts) in present's `svg` template – a group's name, a budget's, an alert's title are escaped
// where they are drawn –, the same classes the page's style recolours in dark mode. Figures are drawn from numbers;
// the exact ones are in the table. A period the figures cover only in part (a week the range cuts, the day still
// loading: coverage.ts) is drawn lighter and hatched, its first and last ones labelled under the axis ("4 of 7
// days"), so a short week never reads as a fall in spend.
import { svg, type Markup } from '../present/index.ts';
import {
  across,
  bands,
  chartText,
  dayLabel,
  INK,
  MUTED_TEXT,
  PALETTE,
  stackedRange,
  stackedSegments,
  svgDocument,
  title,
  usdShort,
  yAxis,
  yScale,
  type Frame,
} from '../report/charts/axes.ts';
import type { AnomalyMark } from './anomalies.ts';
import type { DrawnBudget } from './budgets.ts';

export interface ExploreChartInput {
  title: string;
  /** Period starts (YYYY-MM-DD). */
  periods: string[];
  /** In the table's order; `other` is the rest together, drawn grey. */
  series: { label: string; values: number[]; other?: boolean; color?: string }[];
  budgets: DrawnBudget[];
  anomalies: AnomalyMark[];
  unit: 'usd' | 'hours';
  /** Per period (in `periods` order): a short note when the period is partial ("4 of 7 days"), else undefined. */
  partial?: (string | undefined)[];
  width?: number;
  height?: number;
}

const FONT = 'system-ui, -apple-system, Segoe UI, DejaVu Sans, sans-serif';
const ALERT = '#c00000';
// the report's palette without its grey, and three more: ten groups apart, the grey for Other
const COLORS = PALETTE.filter((c) => c !== '#8c8c8c').concat(['#7f3c8d', '#11a579', '#a0522d']);
const OTHER = '#8c8c8c';
const colorOf = (s: { other?: boolean; color?: string }, k: number) => (s.other ? OTHER : (s.color ?? COLORS[k % COLORS.length]!));

const hoursShort = (v: number) => (Math.abs(v) >= 1000 ? `${Number((v / 1000).toPrecision(3))}k h` : `${Number(v.toPrecision(3))} h`);

interface Key {
  label: string;
  color: string;
  dashed: boolean;
}

const LEGEND_ROW = 18;
/** The line under the day labels that names a partial first or last period. */
const PARTIAL_ROW = 15;
// stripes in the chart's own background colour (the page's style sets c-hatch per scheme) over a lighter bar
const STRIPE = svg`<line x1="0" y1="0" x2="0" y2="6" stroke="#ffffff" stroke-width="2.5" class="c-hatch"/>`;
const PATTERN = svg`id="partial-hatch" width="6" height="6" patternUnits="userSpaceOnUse"`;
const HATCH = svg`<defs><pattern ${PATTERN} patternTransform="rotate(45)">${STRIPE}</pattern></defs>`;
const LEGEND_DASHES = svg`stroke-width="2.5" stroke-dasharray="5 3" class="c-budget"`;
const keyWidth = (k: Key) => 19 + k.label.length * 6.5 + 18;

/** The legend's keys in rows that fit the width (eleven groups do not fit one line). */
function legendRows(keys: readonly Key[], width: number): Key[][] {
  const rows: Key[][] = [[]];
  let x = 0;
  for (const k of keys) {
    if (x + keyWidth(k) > width && rows.at(-1)!.length > 0) (rows.push([]), (x = 0));
    rows.at(-1)!.push(k);
    x += keyWidth(k);
  }
  return rows;
}

function legendSvg(frame: Frame, rows: Key[][]): Markup[] {
  const out: Markup[] = [];
  rows.forEach((row, r) => {
    const y = frame.height - 14 - (rows.length - 1 - r) * LEGEND_ROW;
    let x = frame.left;
    for (const k of row) {
      out.push(k.dashed
        ? svg`<line x1="${x}" x2="${x + 14}" y1="${y - 4}" y2="${y - 4}" stroke="${k.color}" ${LEGEND_DASHES}/>`
        : svg`<rect x="${x}" y="${y - 9}" width="12" height="10" fill="${k.color}"/>`);
      out.push(chartText({ x: x + 19, y, fill: INK, className: 'c-ink', font: FONT }, k.label));
      x += keyWidth(k);
    }
  });
  return out;
}

export function exploreChartSvg(input: ExploreChartInput): Markup {
  const width = input.width ?? 960;
  const keys: Key[] = input.series.map((s, k) => ({ label: s.label.length > 60 ? `${s.label.slice(0, 59)}…` : s.label, color: colorOf(s, k), dashed: false }));
  if (input.budgets.length > 0) keys.push({ label: 'budget', color: ALERT, dashed: true });
  const rows = legendRows(keys, width - 68 - 24);
  const partial = input.partial ?? [];
  const n = input.periods.length;
  // only the first and last periods can be cut by the range; a later one is partial only while loading or ahead
  const labelled = [...new Set([0, n - 1])].filter((i) => i >= 0 && partial[i] !== undefined);
  const extra = (rows.length - 1) * LEGEND_ROW + (labelled.length > 0 ? PARTIAL_ROW : 0);
  const frame: Frame = { width, height: (input.height ?? 340) + extra, left: 68, right: 24, top: 40, bottom: 64 + extra };
  const body: Markup[] = [...(partial.some((p) => p !== undefined) ? [HATCH] : []), title(frame, input.title, FONT)];
  const budgetValues = input.budgets.map((b) => Number(b.amount));
  const range = stackedRange(input.series, n);
  const scale = yScale(frame, range.min, Math.max(range.max, ...budgetValues));
  const format = input.unit === 'usd' ? usdShort : hoursShort;
  body.push(yAxis(frame, scale, FONT, format));
  const { barW, xAt } = bands(frame, n);
  for (const { k, i, v, from, to } of stackedSegments(input.series, n)) {
    const s = input.series[k]!;
    const [y0, y1] = [scale.y(from), scale.y(to)];
    const height = Math.max(0.5, Math.abs(y1 - y0)).toFixed(1);
    const [x, y] = [(xAt(i) - barW / 2).toFixed(1), Math.min(y0, y1).toFixed(1)];
    const box = svg`x="${x}" y="${y}" width="${barW.toFixed(1)}" height="${height}"`;
    const part = partial[i];
    const tip = `${s.label} · ${input.periods[i]}${part ? ` (${part})` : ''}: ${format(v)}`;
    if (part === undefined) body.push(svg`<rect ${box} fill="${colorOf(s, k)}"><title>${tip}</title></rect>`);
    else {
      const lighter = svg`fill="${colorOf(s, k)}" fill-opacity="0.55" class="partial"`;
      body.push(svg`<rect ${box} ${lighter}><title>${tip}</title></rect>`);
      body.push(svg`<rect ${box} fill="url(#partial-hatch)" pointer-events="none"/>`);
    }
  }
  for (const [i, b] of input.budgets.entries()) {
    const y = scale.y(budgetValues[i]!).toFixed(1);
    const dashes = svg`stroke="${ALERT}" stroke-width="2" stroke-dasharray="6 4" class="budget c-budget"`;
    body.push(svg`<line ${across(frame, y)} ${dashes}/>`);
    const dy = Number(y) - frame.top < 14 ? 13 : -5; // under a line at the top, clear of the title
    const ink = { fill: ALERT, className: 'c-budget-ink', font: FONT };
    body.push(chartText({ x: frame.left + 6, y, dy, ...ink }, `budget ${b.name}: ${format(budgetValues[i]!)}`));
  }
  // a day's mark goes on the period holding it: the week or month it falls in, not only a day of its own
  const periodOf = (day: string) => input.periods.findLastIndex((p) => p <= day);
  for (const a of input.anomalies) {
    const i = periodOf(a.day);
    if (i < 0) continue;
    const x = xAt(i).toFixed(1);
    const y = frame.height - frame.bottom + 4;
    const tip = `anomaly on ${a.day}: ${a.titles.join('; ')}`;
    body.push(svg`<path d="M${x},${y} l-5,9 h10 z" fill="${ALERT}" class="anomaly"><title>${tip}</title></path>`);
  }
  const every = Math.max(1, Math.ceil(n / 10));
  for (let i = 0; i < n; i += every) {
    const at = { x: xAt(i).toFixed(1), y: frame.height - frame.bottom + 26, anchor: 'middle' } as const;
    body.push(chartText({ ...at, ...MUTED_TEXT, font: FONT }, dayLabel(input.periods[i]!)));
  }
  for (const i of labelled) {
    // the first one starts at its bar's left edge, the last one ends at its bar's right: neither runs off the chart
    const [x, anchor]: [number, 'start' | 'middle' | 'end'] =
      n === 1 ? [xAt(i), 'middle'] : i === 0 ? [xAt(i) - barW / 2, 'start'] : [xAt(i) + barW / 2, 'end'];
    const at = { x: x.toFixed(1), y: frame.height - frame.bottom + 26 + PARTIAL_ROW, anchor } as const;
    body.push(chartText({ ...at, fill: MUTED_TEXT.fill, className: 'c-muted partial-note', font: FONT }, partial[i]!));
  }
  return svgDocument(frame, [...body, ...legendSvg(frame, rows)]);
}
