// A saved view's HTML page (`report --view <name>`): one self-contained page with the view's heading, the explorer's
// chart of the answer and its table (groups × periods, each group's total and share, the totals row), the figures
// written from the answer's exact DECIMAL text by the explorer's own formatting (explore/view-text.ts); the table is
// #explore-table, so the page's style and script pin and cue it as on /explore.
import { answerChartSeries } from '../../explore/answer-chart.ts';
import type { ExploreAnswer } from '../../explore/run-explore.ts';
import { dimensionLabel, valueText } from '../../explore/view-text.ts';
import { CHART_CUE, html, pageDocument, type Markup } from '../../present/index.ts';
import type { Heading } from '../heading.ts';
import { periodHeading } from './view-workbook.ts';
import { MEASURES } from '../../model/semantic.ts';

function viewTable(a: ExploreAnswer): Markup {
  const r = a.request;
  const t = a.table;
  const value = valueText(r);
  const num = (v: string | null) => (v === null ? html`<td class="num" data-v="">–</td>` : html`<td class="num" data-v="${v}">${value(v)}</td>`);
  const pct = (v: string | null, pin: string, sign = false) =>
    v === null ? html`<td class="num ${pin}" data-v="">–</td>` : html`<td class="num ${pin}" data-v="${v}">${sign && !v.startsWith('-') && Number(v) !== 0 ? '+' : ''}${v}%</td>`;
  const total = (v: string | null) => (v === null ? html`<td class="num pin-t" data-v="">–</td>` : html`<td class="num pin-t" data-v="${v}">${value(v)}</td>`);
  const head = html`<tr>${r.by.map((d, i) => html`<th scope="col"${i === 0 ? html` class="pin-l"` : ''}>${dimensionLabel(d)}</th>`)}${t.periods.map((p, i) => html`<th scope="col" class="num">${periodHeading(a, p, i)}</th>`)}<th scope="col" class="num pin-t">Total</th><th scope="col" class="num pin-s">${MEASURES.share.label}</th><th scope="col" class="num pin-c">${MEASURES.change.label}</th></tr>`;
  const rows = t.groups.map((g) => {
    const keys = g.keys.length === 0 ? html`<th scope="row" class="pin-l" colspan="${r.by.length}">Other</th>` : g.keys.map((k, i) => html`<th scope="row"${i === 0 ? html` class="pin-l"` : ''} data-v="${k}">${g.names[i] ?? k}</th>`);
    return html`<tr>${keys}${g.cells.map(num)}${total(g.total)}${pct(g.share, 'pin-s')}${pct(g.change, 'pin-c', true)}</tr>`;
  });
  const share = t.total === null || t.total === '0.000000' ? null : '100.00';
  const totals = html`<tr class="total"><th scope="row" class="pin-l" colspan="${r.by.length}">Total</th>${t.periodTotals.map(num)}${total(t.total)}${pct(share, 'pin-s')}${pct(t.change, 'pin-c', true)}</tr>`;
  const empty = t.groups.length === 0 ? html`<p class="note">No ${r.metric === 'gpu_hours' ? MEASURES.gpu_hours.label : 'cost'} in this range with these filters.</p>` : '';
  return html`${empty}<p class="cue" hidden></p><div class="scroll" tabindex="0" role="region" aria-label="Groups by period"><table id="explore-table"><thead>${head}</thead><tbody>${rows}</tbody><tfoot>${totals}</tfoot></table></div>
<p class="note">Top 10 groups by total, the rest as Other: the same figures as the view on /explore. Change compares the total with the same number of days just before.</p>`;
}

/** The whole page, as the text to write. */
export function viewPageHtml(a: ExploreAnswer, heading: Heading, chartSvg: Markup): string {
  const groups = answerChartSeries(a).length;
  const chart = html`<figure class="chart" role="img" aria-label="${`Stacked chart of ${groups} groups over ${a.table.periods.length} periods`}">${CHART_CUE}${chartSvg}</figure>`;
  return pageDocument({ title: heading.title, lines: heading.lines, simulatedAccounts: heading.simulatedAccounts, body: html`<section id="s-view">${chart}${viewTable(a)}</section>` });
}
