// The parts every chart shares: a frame with margins, a "nice" currency y-axis, day labels, a legend. Charts are
// plain SVG (no charting package) written with present's `svg` template, so every label is escaped where it is drawn;
// png.ts rasterises the same SVG to PNG.
import { FAMILIES } from '../../model/index.ts';
import { svg, type HtmlValue, type Markup } from '../../present/index.ts';

export interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const INK = '#1f2937';
export const MUTED = '#6b7280';
export const GRID = '#e5e7eb';
// Okabe–Ito-like palette: distinguishable for colour-blind readers and in greyscale print
export const PALETTE = ['#3b6ea8', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#8c8c8c', '#f0e442'];

/**
 * A cost family's colour, the same on every chart that draws families (the report's daily spend, the drill-down, the
 * explorer): its place in the model's order, whichever families a chart happens to show. Undefined for other groups.
 */
export function familyColor(group: string): string | undefined {
  const i = (FAMILIES as readonly string[]).indexOf(group);
  return i < 0 ? undefined : PALETTE[i];
}

/** $0, $850, $1.2k, $12k, $1.5M – short enough for an axis. */
export function usdShort(v: number): string {
  const sign = v < 0 ? '-' : '';
  const a = Math.abs(v);
  const trim = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1).replace(/\.0$/, '') : x.toFixed(2).replace(/\.?0+$/, ''));
  if (a >= 1e6) return `${sign}$${trim(a / 1e6)}M`;
  if (a >= 1e3) return `${sign}$${trim(a / 1e3)}k`;
  return `${sign}$${trim(a)}`;
}

/** A figure below a dollar (a cost per image, per job) to four decimals: the `usd` unit's cents would draw $0.00. */
export function usdFine(v: number): string {
  const sign = v < 0 ? '-' : '';
  return `${sign}$${Math.abs(v).toFixed(4).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
}

/** Axis bounds and ticks at 1, 2, 2.5 or 5 × 10^k, about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const lo = Math.min(0, min);
  const hi = max > lo ? max : lo + 1;
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.floor(lo / step) * step; t < hi + step * 0.999; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

export interface YScale {
  ticks: number[];
  y(v: number): number;
}

export function yScale(frame: Frame, min: number, max: number): YScale {
  const ticks = niceTicks(min, max);
  const lo = ticks[0]!;
  const hi = ticks.at(-1)!;
  const plotH = frame.height - frame.top - frame.bottom;
  return { ticks, y: (v) => frame.top + plotH - ((v - lo) / (hi - lo)) * plotH };
}

/** Where a label goes and how it reads: `size` 11 px unless told, coloured by a class the page recolours. */
export interface TextStyle {
  x: number | string;
  y: number | string;
  dy?: number | string;
  anchor?: 'start' | 'middle' | 'end';
  size?: number;
  bold?: boolean;
  fill: string;
  className: string;
  font: string;
}

/** The muted grey of axis labels and notes. */
export const MUTED_TEXT = { fill: MUTED, className: 'c-muted' } as const;

/** A label of a chart, its attributes in the one order every chart writes them. */
export function chartText(t: TextStyle, content: HtmlValue): Markup {
  const dy = t.dy === undefined ? '' : svg` dy="${t.dy}"`;
  const anchor = t.anchor === undefined ? '' : svg` text-anchor="${t.anchor}"`;
  const weight = t.bold ? svg` font-weight="bold"` : '';
  const paint = svg`fill="${t.fill}" class="${t.className}" font-family="${t.font}"`;
  return svg`<text x="${t.x}" y="${t.y}"${dy}${anchor} font-size="${t.size ?? 11}"${weight} ${paint}>${content}</text>`;
}

/** A line's ends across the whole plot at `y`: the axis, a grid line, a budget, a threshold. */
export function across(frame: Frame, y: string): Markup {
  return svg`x1="${frame.left}" x2="${frame.width - frame.right}" y1="${y}" y2="${y}"`;
}

/** The y-axis: a grid line and a label per tick, in `format` (dollars, short, unless told). */
export function yAxis(frame: Frame, scale: YScale, font: string, format: (v: number) => string = usdShort): Markup {
  return svg`${scale.ticks.map((t) => {
    const y = scale.y(t).toFixed(1);
    const [stroke, className] = t === 0 ? [MUTED, 'c-axis'] : [GRID, 'c-grid'];
    const label = chartText({ x: frame.left - 8, y, dy: 4, anchor: 'end', ...MUTED_TEXT, font }, format(t));
    return svg`<line ${across(frame, y)} stroke="${stroke}" stroke-width="1" class="${className}"/>${label}`;
  })}`;
}

/** Bars in equal bands across the plot, one per period: each band's centre, and a bar's width (78 % of a band). */
export function bands(frame: Frame, n: number): { barW: number; xAt: (i: number) => number } {
  const plotW = frame.width - frame.left - frame.right;
  const band = n > 0 ? plotW / n : plotW;
  return { barW: Math.max(1, band * 0.78), xAt: (i) => frame.left + band * i + band / 2 };
}

/** The range stacked bars must fit: the most negative stack (down from 0) and the highest positive one (up from 0). */
export function stackedRange(series: readonly { values: readonly number[] }[], n: number): { min: number; max: number } {
  const pos = new Array<number>(n).fill(0);
  const neg = new Array<number>(n).fill(0);
  for (const s of series) s.values.forEach((v, i) => (v >= 0 ? (pos[i]! += v) : (neg[i]! += v)));
  return { min: Math.min(0, ...neg), max: Math.max(0, ...pos) };
}

/** One segment of a stacked bar: series k's value v in period i, from `from` to `to` on the value axis. */
export interface StackedSegment {
  k: number;
  i: number;
  v: number;
  from: number;
  to: number;
}

/** Every non-zero value as a segment, series by series: positives stacked up from 0, negatives down from 0. */
export function stackedSegments(series: readonly { values: readonly number[] }[], n: number): StackedSegment[] {
  const up = new Array<number>(n).fill(0);
  const down = new Array<number>(n).fill(0);
  const out: StackedSegment[] = [];
  series.forEach((s, k) => {
    s.values.forEach((v, i) => {
      if (v === 0) return;
      const base = v > 0 ? up : down;
      out.push({ k, i, v, from: base[i]!, to: base[i]! + v });
      base[i]! += v;
    });
  });
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Oct 5" for a YYYY-MM-DD day. */
export function dayLabel(day: string): string {
  return `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;
}

export function title(frame: Frame, text: string, font: string): Markup {
  return chartText({ x: frame.left, y: 22, size: 15, bold: true, fill: INK, className: 'c-ink', font }, text);
}

export interface LegendItem {
  label: string;
  color: string;
  kind: 'box' | 'line' | 'dash' | 'band';
  /** The page's class for its colour (c-budget): the page redraws it in the scheme's colour, the PNG keeps `color`. */
  className?: string;
}

export function legend(frame: Frame, items: readonly LegendItem[], font: string): Markup {
  let x = frame.left;
  const y = frame.height - 14;
  return svg`${items.map((it) => {
    const opacity = it.kind === 'band' ? svg` opacity="0.35"` : '';
    const dashes = it.kind === 'dash' ? svg` stroke-dasharray="5 3"` : '';
    const className = it.className ? svg` class="${it.className}"` : '';
    const stroke = svg`stroke="${it.color}" stroke-width="2.5"${dashes}${className}`;
    const mark =
      it.kind === 'box' || it.kind === 'band'
        ? svg`<rect x="${x}" y="${y - 9}" width="12" height="10" fill="${it.color}"${opacity}/>`
        : svg`<line x1="${x}" x2="${x + 14}" y1="${y - 4}" y2="${y - 4}" ${stroke}/>`;
    const text = chartText({ x: x + 19, y, fill: INK, className: 'c-ink', font }, it.label);
    x += 19 + it.label.length * 6.5 + 18;
    return svg`${mark}${text}`;
  })}`;
}

/** The chart as an SVG document: its size, a background the page's style recolours, and the drawing. */
export function svgDocument(frame: Frame, body: Markup | readonly Markup[]): Markup {
  const size = svg`width="${frame.width}" height="${frame.height}"`;
  const open = svg`<svg xmlns="http://www.w3.org/2000/svg" ${size} viewBox="0 0 ${frame.width} ${frame.height}">`;
  return svg`${open}<rect ${size} fill="#ffffff" class="c-bg"/>${body}</svg>`;
}

export function emptyNote(frame: Frame, font: string): Markup {
  const x = (frame.left + frame.width - frame.right) / 2;
  const y = (frame.top + frame.height - frame.bottom) / 2;
  return chartText({ x, y, anchor: 'middle', size: 13, ...MUTED_TEXT, font }, 'No data for this period');
}
