// A saved view's HTML page (`report --view <name>`): one self-contained page with the view's heading, the explorer's
// chart of the answer and its table (groups × periods, each group's total and share, the totals row), the figures
// written from the answer's exact DECIMAL text by the explorer's own formatting (explore/view-text.ts).
import { answerChartSeries } from '../../explore/answer-chart.ts';
import type { ExploreAnswer } from '../../explore/run-explore.ts';
import { dimensionLabel, valueText } from '../../explore/view-text.ts';
import { CHART_CUE, html, pageDocument, trustedMarkup, type Markup } from '../../present/index.ts';
import type { Heading } from '../heading.ts';
import { periodHeading } from './view-workbook.ts';

function viewTable(a: ExploreAnswer): Markup {
  const r = a.request;
  const t = a.table;
  const value = valueText(r);
  const num = (v: string | null) => (v === null ? html`<td class="num" data-v="">–</td>` : html`<td class="num" data-v="${v}">${value(v)}</td>`);
  const pct = (v: string | null) => (v === null ? html`<td class="num" data-v="">–</td>` : html`<td class="num" data-v="${v}">${v}%</td>`);
  const head = html`<tr>${r.by.map((d) => html`<th scope="col">${dimensionLabel(d)}</th>`)}${t.periods.map((p, i) => html`<th scope="col" class="num">${periodHeading(a, p, i)}</th>`)}<th scope="col" class="num">Total</th><th scope="col" class="num">Share</th></tr>`;
  const rows = t.groups.map((g) => {
    const keys = g.keys.length === 0 ? html`<th scope="row" colspan="${r.by.length}">Other</th>` : g.keys.map((k, i) => html`<th scope="row" data-v="${k}">${g.names[i] ?? k}</th>`);
    return html`<tr>${keys}${g.cells.map(num)}${num(g.total)}${pct(g.share)}</tr>`;
  });
  const share = t.total === null || t.total === '0.000000' ? null : '100.00';
  const total = html`<tr class="total"><th scope="row" colspan="${r.by.length}">Total</th>${t.periodTotals.map(num)}${num(t.total)}${pct(share)}</tr>`;
  const empty = t.groups.length === 0 ? html`<p class="note">No ${r.metric === 'gpu_hours' ? 'GPU-hours' : 'cost'} in this range with these filters.</p>` : '';
  return html`${empty}<div class="scroll" tabindex="0" role="region" aria-label="Groups by period"><table id="view-table"><thead>${head}</thead><tbody>${rows}</tbody><tfoot>${total}</tfoot></table></div>
<p class="note">Top 10 groups by total, the rest as Other: the same figures as the view on /explore.</p>`;
}

/** The whole page, as the text to write. */
export function viewPageHtml(a: ExploreAnswer, heading: Heading, chartSvg: string): string {
  const groups = answerChartSeries(a).length;
  const chart = html`<figure class="chart" role="img" aria-label="${`Stacked chart of ${groups} groups over ${a.table.periods.length} periods`}">${CHART_CUE}${trustedMarkup(chartSvg)}</figure>`;
  return pageDocument({ title: heading.title, lines: heading.lines, simulatedAccounts: heading.simulatedAccounts, body: html`<section id="s-view">${chart}${viewTable(a)}</section>` });
}
