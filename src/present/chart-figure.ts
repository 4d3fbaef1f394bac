// A chart on a page: the SVG our chart renderer drew (src/report/charts – the same SVG the workbook's PNGs are
// rasterised from), in a figure named for assistive technology; charts side by side where two fit.
import { html, type Markup } from './html.ts';

export interface ChartInput {
  title: string;
  /** The chart's SVG, drawn with present's `svg` template (its labels escaped). */
  svg: Markup;
}

/** Shown on a phone only, where a chart keeps its drawn size and scrolls (page-assets.ts). */
export const CHART_CUE = html`<figcaption class="cue chart-cue">Wider than the screen – scroll the chart sideways →</figcaption>`;

export function chartFigure(c: ChartInput): Markup {
  return html`<figure class="chart" aria-label="${c.title}">${CHART_CUE}${c.svg}</figure>`;
}

/** Nothing when there is no chart. */
export function chartRow(charts: readonly ChartInput[]): Markup {
  return charts.length ? html`<div class="charts">${charts.map(chartFigure)}</div>` : html``;
}
