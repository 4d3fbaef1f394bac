// A chart on a page: the SVG our chart renderer drew (src/report/charts – the same SVG the workbook's PNGs are
// rasterised from), in a figure named for assistive technology; charts side by side where two fit.
import { html, type Markup } from './html.ts';

export interface ChartInput {
  title: string;
  /** The chart's SVG, trusted by the caller (trustedMarkup) because our renderer made it. */
  svg: Markup;
}

export function chartFigure(c: ChartInput): Markup {
  return html`<figure class="chart" aria-label="${c.title}">${c.svg}</figure>`;
}

/** Nothing when there is no chart. */
export function chartRow(charts: readonly ChartInput[]): Markup {
  return charts.length ? html`<div class="charts">${charts.map(chartFigure)}</div>` : html``;
}
