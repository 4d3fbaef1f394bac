// The explorer's chart: the groups stacked per period (the top 10 and "other", as the table below), a budget of the
// config drawn as a line where it watches exactly this view (budgets.ts), and the days an anomaly alert fired on
// marked under the axis with the alert's title as the tooltip. Plain SVG from the report's chart parts
// (report/charts/axes.ts), the same classes the page's style recolours in dark mode. Figures are drawn from numbers;
// the exact ones are in the table.
import { dayLabel, esc, GRID, legend, MUTED, PALETTE, svgDocument, title, usdShort, yScale, type Frame, type LegendItem } from '../report/charts/axes.ts';
import type { AnomalyMark } from './anomalies.ts';
import type { DrawnBudget } from './budgets.ts';

export interface ExploreChartInput {
  title: string;
  /** Period starts (YYYY-MM-DD). */
  periods: string[];
  series: { label: string; values: number[] }[];
  budgets: DrawnBudget[];
  anomalies: AnomalyMark[];
  unit: 'usd' | 'hours';
  width?: number;
  height?: number;
}

const FONT = 'system-ui, -apple-system, Segoe UI, DejaVu Sans, sans-serif';
const ALERT = '#c00000';

const hoursShort = (v: number) => (Math.abs(v) >= 1000 ? `${Number((v / 1000).toPrecision(3))}k h` : `${Number(v.toPrecision(3))} h`);

export function exploreChartSvg(input: ExploreChartInput): string {
  const frame: Frame = { width: input.width ?? 960, height: input.height ?? 340, left: 68, right: 24, top: 40, bottom: 64 };
  const n = input.periods.length;
  let body = title(frame, input.title, FONT);
  const pos = new Array<number>(n).fill(0);
  const neg = new Array<number>(n).fill(0);
  for (const s of input.series) s.values.forEach((v, i) => (v >= 0 ? (pos[i]! += v) : (neg[i]! += v)));
  const budgetValues = input.budgets.map((b) => Number(b.amount));
  const scale = yScale(frame, Math.min(0, ...neg), Math.max(0, ...pos, ...budgetValues));
  const format = input.unit === 'usd' ? usdShort : hoursShort;
  body += scale.ticks
    .map((t) => {
      const y = scale.y(t).toFixed(1);
      return (
        `<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${y}" y2="${y}" stroke="${t === 0 ? MUTED : GRID}" stroke-width="1" class="${t === 0 ? 'c-axis' : 'c-grid'}"/>` +
        `<text x="${frame.left - 8}" y="${y}" dy="4" text-anchor="end" font-size="11" fill="${MUTED}" class="c-muted" font-family="${FONT}">${esc(format(t))}</text>`
      );
    })
    .join('');
  const plotW = frame.width - frame.left - frame.right;
  const band = n > 0 ? plotW / n : plotW;
  const barW = Math.max(1, band * 0.78);
  const xAt = (i: number) => frame.left + band * i + band / 2;
  const up = new Array<number>(n).fill(0);
  const down = new Array<number>(n).fill(0);
  input.series.forEach((s, k) => {
    const color = PALETTE[k % PALETTE.length]!;
    s.values.forEach((v, i) => {
      if (v === 0) return;
      const base = v > 0 ? up : down;
      const y0 = scale.y(base[i]!);
      const y1 = scale.y(base[i]! + v);
      base[i]! += v;
      body += `<rect x="${(xAt(i) - barW / 2).toFixed(1)}" y="${Math.min(y0, y1).toFixed(1)}" width="${barW.toFixed(1)}" height="${Math.max(0.5, Math.abs(y1 - y0)).toFixed(1)}" fill="${color}"><title>${esc(`${s.label} · ${input.periods[i]}: ${format(v)}`)}</title></rect>`;
    });
  });
  for (const [i, b] of input.budgets.entries()) {
    const y = scale.y(budgetValues[i]!).toFixed(1);
    body += `<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${y}" y2="${y}" stroke="${ALERT}" stroke-width="2" stroke-dasharray="6 4" class="budget"/>`;
    body += `<text x="${frame.left + 6}" y="${y}" dy="-5" font-size="11" fill="${ALERT}" font-family="${FONT}">${esc(`budget ${b.name}: ${format(budgetValues[i]!)}`)}</text>`;
  }
  const at = new Map(input.periods.map((p, i) => [p, i]));
  for (const a of input.anomalies) {
    const i = at.get(a.day);
    if (i === undefined) continue;
    const x = xAt(i).toFixed(1);
    const y = frame.height - frame.bottom + 4;
    body += `<path d="M${x},${y} l-5,9 h10 z" fill="${ALERT}" class="anomaly"><title>${esc(`anomaly on ${a.day}: ${a.titles.join('; ')}`)}</title></path>`;
  }
  const every = Math.max(1, Math.ceil(n / 10));
  for (let i = 0; i < n; i += every) {
    body += `<text x="${xAt(i).toFixed(1)}" y="${frame.height - frame.bottom + 26}" text-anchor="middle" font-size="11" fill="${MUTED}" class="c-muted" font-family="${FONT}">${esc(dayLabel(input.periods[i]!))}</text>`;
  }
  const items: LegendItem[] = input.series.map((s, k) => ({ label: s.label.length > 16 ? `${s.label.slice(0, 15)}…` : s.label, color: PALETTE[k % PALETTE.length]!, kind: 'box' }));
  if (input.budgets.length > 0) items.push({ label: 'budget', color: ALERT, kind: 'dash' });
  return svgDocument(frame, body + legend(frame, items, FONT));
}
