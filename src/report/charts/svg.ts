// The two summary charts as SVG: daily spend stacked by family, and the month's cumulative spend against the
// forecast (with its range) and the budget. Each is Markup for a page (present's `svg` escaped every label) and, as
// stackedBarsSvg / cumulativeSvg, the same drawing as an SVG file's text: what resvg rasterises for the workbook.
import { svg, type Markup } from '../../present/index.ts';
import {
  across,
  bands,
  chartText,
  dayLabel,
  emptyNote,
  INK,
  legend,
  MUTED_TEXT,
  PALETTE,
  stackedRange,
  stackedSegments,
  svgDocument,
  title,
  usdFine,
  yAxis,
  yScale,
  type Frame,
  type LegendItem,
} from './axes.ts';
import { unitText } from '../../model/index.ts';

export interface ChartSize {
  width: number;
  height: number;
  /** font-family attribute value. */
  font: string;
}

export interface StackedBarsData {
  days: string[];
  /** `color` fixes a series' colour (a family's: familyColor); the others take the palette in their order. */
  series: { label: string; values: number[]; color?: string }[];
}

export interface CumulativeData {
  days: string[];
  actual: (number | null)[];
  forecast: (number | null)[];
  low: (number | null)[];
  high: (number | null)[];
  budget: number | null;
  /** What the actual line measures ("Cost per GPU-hour, whole account"): its legend label instead of "Actual". */
  subject?: string;
  /** A budget's thresholds (/budgets): a thin line each at its share of the budget, labelled with its percent. */
  thresholds?: { pct: number; value: number }[];
}

function frameOf(size: ChartSize): Frame {
  return { width: size.width, height: size.height, left: 64, right: 24, top: 40, bottom: 58 };
}

/** Room a day label ("Nov 28", 11 px) needs from the next one's centre. */
const LABEL_ROOM = 48;

function xLabels(frame: Frame, days: readonly string[], xAt: (i: number) => number, every: number, font: string) {
  const idx: number[] = [];
  for (let i = 0; i < days.length; i += every) idx.push(i);
  const last = days.length - 1;
  // the last day is always labelled; a label closer to it than a label's width ("Nov 28" beside "Dec 1") gives way
  if (idx.at(-1)! !== last) {
    if (xAt(last) - xAt(idx.at(-1)!) < LABEL_ROOM) idx.pop();
    idx.push(last);
  }
  const y = frame.height - frame.bottom + 16;
  const at = (i: number) => ({ x: xAt(i).toFixed(1), y, anchor: 'middle', ...MUTED_TEXT, font }) as const;
  const label = (i: number) => chartText(at(i), dayLabel(days[i]!));
  return svg`${idx.map(label)}`;
}

const colorOf = (s: { color?: string }, k: number): string => s.color ?? PALETTE[k % PALETTE.length]!;
const BUDGET_TEXT = { fill: '#c00000', className: 'c-budget-ink' } as const;

export function stackedBarsChart(chartTitle: string, data: StackedBarsData, size: ChartSize): Markup {
  const frame = frameOf(size);
  const n = data.days.length;
  const body = [title(frame, chartTitle, size.font)];
  if (n === 0 || data.series.length === 0) return svgDocument(frame, [...body, emptyNote(frame, size.font)]);
  const range = stackedRange(data.series, n);
  const scale = yScale(frame, range.min, range.max);
  const { barW, xAt } = bands(frame, n);
  body.push(yAxis(frame, scale, size.font));
  for (const { k, i, from, to } of stackedSegments(data.series, n)) {
    const [y0, y1] = [scale.y(from), scale.y(to)];
    const [x, y, height] = [(xAt(i) - barW / 2).toFixed(1), Math.min(y0, y1).toFixed(1), Math.abs(y1 - y0).toFixed(1)];
    const fill = colorOf(data.series[k]!, k);
    body.push(svg`<rect x="${x}" y="${y}" width="${barW.toFixed(1)}" height="${height}" fill="${fill}"/>`);
  }
  body.push(xLabels(frame, data.days, xAt, Math.max(1, Math.ceil(n / 9)), size.font));
  const items: LegendItem[] = data.series.map((s, k) => ({ label: s.label, color: colorOf(s, k), kind: 'box' }));
  return svgDocument(frame, [...body, legend(frame, items, size.font)]);
}

/** The stacked bars as an SVG file's text (resvg, the workbook's PNG). */
export function stackedBarsSvg(chartTitle: string, data: StackedBarsData, size: ChartSize): string {
  return stackedBarsChart(chartTitle, data, size).text;
}

function path(points: [number, number][]): string {
  return points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

export function cumulativeChart(chartTitle: string, data: CumulativeData, size: ChartSize): Markup {
  const frame = frameOf(size);
  const n = data.days.length;
  const body = [title(frame, chartTitle, size.font)];
  const values = [...data.actual, ...data.forecast, ...data.high, data.budget, ...(data.thresholds ?? []).map((t) => t.value)].filter((v): v is number => v !== null);
  if (n === 0 || values.length === 0) return svgDocument(frame, [...body, emptyNote(frame, size.font)]);
  const scale = yScale(frame, Math.min(0, ...values), Math.max(...values));
  const plotW = frame.width - frame.left - frame.right;
  const xAt = (i: number) => frame.left + (n === 1 ? plotW / 2 : (plotW * i) / (n - 1));
  // a line below a dollar (a unit cost) is labelled to four decimals, its axis too
  const fine = Math.max(...values.map(Math.abs)) < 1;
  // a label at a point reads in the `usd` unit; a negative that rounds to zero keeps its minus, as it always drew
  const usd = fine ? usdFine : (v: number) => unitText(v, 'usd', { minusOnZero: true });
  body.push(fine ? yAxis(frame, scale, size.font, usdFine) : yAxis(frame, scale, size.font));
  const items: LegendItem[] = [];
  const lastActual = data.actual.reduce<number>((last, v, i) => (v !== null ? i : last), -1);

  const bandIdx = data.low.map((v, i) => (v !== null && data.high[i] !== null ? i : -1)).filter((i) => i >= 0);
  if (bandIdx.length > 0) {
    const upper = bandIdx.map((i) => [xAt(i), scale.y(data.high[i]!)] as [number, number]);
    const lower = bandIdx.map((i) => [xAt(i), scale.y(data.low[i]!)] as [number, number]).reverse();
    if (lastActual >= 0 && lastActual < bandIdx[0]!) {
      const anchor: [number, number] = [xAt(lastActual), scale.y(data.actual[lastActual]!)];
      upper.unshift(anchor);
      lower.push(anchor);
    }
    body.push(svg`<path d="${path([...upper, ...lower])} Z" fill="#e69f00" opacity="0.22"/>`);
    items.push({ label: 'Forecast range', color: '#e69f00', kind: 'band' });
  }
  const fIdx = data.forecast.map((v, i) => (v !== null ? i : -1)).filter((i) => i >= 0);
  if (fIdx.length > 0) {
    const pts = fIdx.map((i) => [xAt(i), scale.y(data.forecast[i]!)] as [number, number]);
    if (lastActual >= 0 && lastActual < fIdx[0]!) pts.unshift([xAt(lastActual), scale.y(data.actual[lastActual]!)]);
    const dashes = svg`stroke="#d55e00" stroke-width="2" stroke-dasharray="6 4" class="c-forecast"`;
    body.push(svg`<path d="${path(pts)}" fill="none" ${dashes}/>`);
    const end = fIdx.at(-1)!;
    const last = data.forecast[end]!;
    const at = { x: (xAt(end) - 4).toFixed(1), y: (scale.y(last) - 8).toFixed(1), anchor: 'end' } as const;
    const ink = { fill: '#d55e00', className: 'c-forecast-ink', font: size.font };
    body.push(chartText({ ...at, ...ink }, `forecast ${usd(last)}`));
    items.push({ label: 'Forecast', color: '#d55e00', kind: 'dash', className: 'c-forecast' });
  }
  // the budget's own line (100 %) is drawn below; the other thresholds thinner, labelled at the right end
  for (const t of (data.thresholds ?? []).filter((t) => t.value !== data.budget)) {
    const y = scale.y(t.value).toFixed(1);
    const dashes = svg`stroke="#c00000" stroke-width="1" stroke-dasharray="2 3" class="c-threshold"`;
    body.push(svg`<line ${across(frame, y)} ${dashes}/>`);
    // at the left, as the budget's own label: the right end is where the forecast's label goes
    body.push(chartText({ x: frame.left + 6, y, dy: -5, ...BUDGET_TEXT, font: size.font }, `${t.pct} %`));
  }
  if ((data.thresholds ?? []).some((t) => t.value !== data.budget)) items.push({ label: 'Thresholds', color: '#c00000', kind: 'dash', className: 'c-threshold' });
  if (data.budget !== null) {
    const y = scale.y(data.budget).toFixed(1);
    const dashes = svg`stroke="#c00000" stroke-width="1.5" stroke-dasharray="3 3" class="c-budget"`;
    body.push(svg`<line ${across(frame, y)} ${dashes}/>`);
    // a budget at the top of the scale is labelled under its line, clear of the chart's title
    const dy = Number(y) - frame.top < 14 ? 13 : -5;
    body.push(chartText({ x: frame.left + 6, y, dy, ...BUDGET_TEXT, font: size.font }, `budget ${usd(data.budget)}`));
    items.push({ label: 'Budget', color: '#c00000', kind: 'dash', className: 'c-budget' });
  }
  if (lastActual >= 0) {
    const pts = data.actual.map((v, i) => (v !== null ? ([xAt(i), scale.y(v)] as [number, number]) : undefined)).filter((p): p is [number, number] => p !== undefined);
    body.push(svg`<path d="${path(pts)}" fill="none" stroke="#3b6ea8" stroke-width="2.5"/>`);
    const [x, y] = [xAt(lastActual), scale.y(data.actual[lastActual]!)];
    body.push(svg`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3.5" fill="#3b6ea8"/>`);
    // near the right edge the label goes left of the point, else it would be cut off
    const leftOf = x > frame.left + (frame.width - frame.left - frame.right) * 0.75;
    const anchor = leftOf ? 'end' : 'start';
    const at = { x: (leftOf ? x - 6 : x + 6).toFixed(1), y: (y + 16).toFixed(1), anchor } as const;
    const last = data.actual[lastActual]!;
    body.push(chartText({ ...at, bold: true, fill: INK, className: 'c-ink', font: size.font }, usd(last)));
    items.unshift({ label: data.subject ?? 'Actual', color: '#3b6ea8', kind: 'line' });
  }
  body.push(xLabels(frame, data.days, xAt, n > 20 ? 5 : 2, size.font));
  return svgDocument(frame, [...body, legend(frame, items, size.font)]);
}

/** The cumulative chart as an SVG file's text (resvg, the workbook's PNG). */
export function cumulativeSvg(chartTitle: string, data: CumulativeData, size: ChartSize): string {
  return cumulativeChart(chartTitle, data, size).text;
}
