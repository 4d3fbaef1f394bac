// The cost explorer page (/explore): a GET form whose state is the URL – a view is a link –, the chart of the groups
// over time with the matching budgets and the anomaly days, and the table of groups × periods with totals, shares and
// the change against the previous range of the same length; every group a link that adds it as a filter. The figures
// are the explorer's (src/explore/); this file only draws them, every value through the html template. With
// changed_since the page is the restatements view instead: the cells whose figure moved since then, before and now.
// A period the figures cover only in part is marked in the chart and the table (coverage.ts), the change says which
// days it compares when a day is still loading, and an as_of before the first load says that nothing was loaded
// then instead of drawing $0.
import type { Config } from '../config/schema.ts';
import { answerChartSeries, answerChartSvg } from '../explore/answer-chart.ts';
import { dimensionLabel, rangeLine, valueText } from '../explore/view-text.ts';
import { DIMENSIONS, MEASURES, unitCostLabel } from '../model/semantic.ts';
import { changeHeading, changeText, comparedLine, partialMark, partialNote } from './explore-coverage-text.ts';
import type { Changes } from '../explore/changed-since.ts';
import type { ExploreGroup } from '../explore/explore-table.ts';
import { allocationCategories, exploreChanges, exploreView, nothingLoadedText, offeredUnitMetrics, readExploreRequest, type ExploreAnswer, type NothingLoaded } from '../explore/run-explore.ts';
import { dimensionText, filterText, GRANULARITIES, PLAIN_DIMENSIONS, PRESETS, requestParams, type Dimension, type ExploreRequest, type Filter } from '../explore/request.ts';
import { CHART_CUE } from '../present/chart-figure.ts';
import { html, joinHtml, type Markup } from '../present/html.ts';
import type { Store } from '../store/database.ts';
import { decimalStringToMicros } from '../util/decimal.ts';
import { unitText } from '../model/index.ts';
import { servedPage, type PageContext } from './pages.ts';

const PRESET_LABELS: Record<(typeof PRESETS)[number], string> = {
  mtd: 'Month to date',
  'last-month': 'Last month',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  ytd: 'This year',
};

/** A link to the explorer with this request's parameters, changed by `change`. */
function explorerLink(r: ExploreRequest, change: (p: URLSearchParams) => void = () => {}, path = '/explore'): string {
  const p = requestParams(r);
  change(p);
  return `${path}?${p}`;
}

function option(value: string, label: string, selected: boolean): Markup {
  return html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
}

function dimensionOptions(selected: Dimension | undefined, categories: string[], metric: ExploreRequest['metric']): Markup[] {
  const plain = metric === 'gpu_hours' ? PLAIN_DIMENSIONS.filter((d) => d !== 'template' && d !== 'component') : PLAIN_DIMENSIONS;
  const chosen = selected ? dimensionText(selected) : undefined;
  return [
    ...plain.map((d) => option(d, DIMENSIONS[d].label, chosen === d)),
    ...(metric !== 'gpu_hours' ? categories.map((c) => option(`category:${c}`, `Category ${c}`, chosen === `category:${c}`)) : []),
  ];
}

/**
 * The form shows the range it answers: the preset selected – month to date when the URL names no range – and its
 * days in From and To (a preset wins over them; the page script unselects it when a day is typed).
 */
function controls(r: ExploreRequest, categories: string[], unitMetrics: string[], url: URL): Markup {
  const preset = r.preset ?? (url.searchParams.get('from') || url.searchParams.get('to') ? undefined : 'mtd');
  const kept = r.filters.map((f) => html`<input type="hidden" name="filter" value="${filterText(f)}">`);
  return html`<form class="tools explore" method="get" action="/explore" aria-label="Explorer view">
<label>Range <select name="preset">${option('', 'Custom (from, to)', preset === undefined)}${PRESETS.map((p) => option(p, PRESET_LABELS[p], preset === p))}</select></label>
<label>From <input type="date" name="from" value="${r.from}"></label>
<label>To <input type="date" name="to" value="${r.to}"></label>
<label>Granularity <select name="granularity">${GRANULARITIES.map((g) => option(g, g, r.granularity === g))}</select></label>
<label>Group by <select name="by">${dimensionOptions(r.by[0], categories, r.metric)}</select></label>
<label>then by <select name="by">${option('', '(nothing)', r.by[1] === undefined)}${dimensionOptions(r.by[1], categories, r.metric)}</select></label>
<label>Metric <select name="metric">${option('cost', `${MEASURES.cost.label} (USD)`, r.metric === 'cost')}${option('gpu_hours', MEASURES.gpu_hours.label, r.metric === 'gpu_hours')}${unitMetrics.map((m) => option(`unit_cost:${m}`, unitCostLabel(m), r.unitMetric === m))}</select></label>
<label>Add filter <input name="filter" value="" placeholder="template:name, -family:storage"></label>
<label>As loaded at <input name="as_of" value="${r.asOf?.text ?? ''}" placeholder="YYYY-MM-DD or …T12:00:00Z"></label>
<label>Changed since <input name="changed_since" value="${r.changedSince?.text ?? ''}" placeholder="YYYY-MM-DD or …T12:00:00Z"></label>
${kept}<button type="submit">Show</button>
<a class="button" href="${explorerLink(r, () => {}, '/explore.csv')}" download>Download CSV</a>
</form>`;
}

function filterList(r: ExploreRequest): Markup {
  if (r.filters.length === 0) return html``;
  const items = r.filters.map((f: Filter, i) => {
    const without = explorerLink(r, (p) => {
      p.delete('filter');
      r.filters.forEach((other, j) => j !== i && p.append('filter', filterText(other)));
    });
    return html`<li>${f.exclude ? 'without' : 'only'} ${dimensionLabel(f.dimension)} <q>${f.value}</q> <a href="${without}" aria-label="${`Remove the filter ${filterText(f)}`}">remove</a></li>`;
  });
  return html`<nav aria-label="Filters"><ul class="filters">${items}</ul></nav>`;
}

function groupCells(a: ExploreAnswer, g: ExploreGroup): Markup {
  const r = a.request;
  if (g.keys.length === 0) return html`<th scope="row" class="pin-l" colspan="${r.by.length}">Other</th>`;
  return joinHtml(
    g.keys.map((key, level) => {
      const name = g.names[level] ?? key;
      const add = explorerLink(r, (p) => p.append('filter', filterText({ dimension: r.by[level]!, value: key, exclude: false })));
      const label = `${dimensionLabel(r.by[level]!)} ${name}: show only this`;
      return html`<th scope="row"${level === 0 ? html` class="pin-l"` : ''} data-v="${key}"><a href="${add}" aria-label="${label}">${name}</a>${name !== key ? html` <span class="cue">${key}</span>` : ''}</th>`;
    }),
  );
}

function table(a: ExploreAnswer): Markup {
  const r = a.request;
  const t = a.table;
  const value = valueText(r);
  // the last three columns – Total, Share, Change – stay pinned at the right while the periods scroll under them
  const num = (v: string | null, pin = '') => (v === null ? html`<td class="num${pin}" data-v="">–</td>` : html`<td class="num${pin}" data-v="${v}">${value(v)}</td>`);
  const pct = (v: string | null, change: boolean) => {
    const pin = change ? ' pin-c' : ' pin-s';
    if (v === null) return html`<td class="num${pin}" data-v="">–</td>`;
    const up = change && !v.startsWith('-') && Number(v) !== 0;
    const cls = change ? (up ? 'num up' : Number(v) < 0 ? 'num down' : 'num') : 'num';
    return html`<td class="${cls}${pin}" data-v="${v}">${change && up ? '+' : ''}${v}%</td>`;
  };
  const period = (p: string, i: number) => {
    const mark = partialMark(a.coverage[i]!, r.granularity);
    return mark === undefined ? html`<th scope="col" class="num">${p}</th>` : html`<th scope="col" class="num partial">${p}<span class="part">${mark}</span></th>`;
  };
  const changeHead = changeHeading(a.compared);
  const head = html`<tr>${r.by.map((d, i) => html`<th scope="col"${i === 0 ? html` class="pin-l"` : ''}>${dimensionLabel(d)}</th>`)}${t.periods.map(period)}<th scope="col" class="num pin-t">Total</th><th scope="col" class="num pin-s">${MEASURES.share.label}</th><th scope="col" class="num pin-c">${changeHead}</th></tr>`;
  const rows = t.groups.map((g) => html`<tr data-rank="${g.rank}">${groupCells(a, g)}${g.cells.map((c) => num(c))}${num(g.total, ' pin-t')}${pct(g.share, false)}${pct(g.change, true)}</tr>`);
  const total = html`<tr class="total"><th scope="row" class="pin-l" colspan="${r.by.length}">Total</th>${t.periodTotals.map((c) => num(c))}${num(t.total, ' pin-t')}${pct(t.total === null || t.total === '0.000000' ? null : '100.00', false)}${pct(t.change, true)}</tr>`;
  const empty = t.groups.length === 0 ? html`<p class="note">No ${r.metric === 'gpu_hours' ? MEASURES.gpu_hours.label : 'cost'} in this range with these filters.</p>` : '';
  return html`${empty}<p class="cue" hidden></p><div class="scroll" tabindex="0" role="region" aria-label="Groups by period"><table id="explore-table"><thead>${head}</thead><tbody>${rows}</tbody><tfoot>${total}</tfoot></table></div>
${partialNote(a)}<p class="note" id="change-note">Top 10 groups by total, the rest as Other. ${changeText(r, a.compared)}${
    r.metric === 'unit_cost'
      ? ` Each figure is the group's cost ÷ ${r.unitScope === '' ? "the whole account's" : `the ${r.unitScope.replace(':', ' ')}'s`} ${r.unitMetric} in that period (– where there was none), so the groups add up to the total; share is of the cost.`
      : ''
  }</p>`;
}


function chart(a: ExploreAnswer): Markup {
  const r = a.request;
  const series = answerChartSeries(a);
  const svg = answerChartSvg(a);
  const notes = [
    ...a.budgets.map(
      (b) => html`Budget ${b.name}: ${unitText(b.amount, 'usd', { micros: true })} per ${r.granularity} (dashed line).`,
    ),
    ...(a.anomalies.length > 0 ? [html`▲ marks the ${a.anomalies.length === 1 ? 'day' : 'days'} an anomaly alert fired on: ${a.anomalies.map((m) => m.day).join(', ')}.`] : []),
  ];
  return html`<figure class="chart" role="img" aria-label="${`Stacked chart of ${series.length} groups over ${a.table.periods.length} periods`}">${CHART_CUE}${svg}</figure>${notes.length ? html`<p class="note">${joinHtml(notes, ' ')}</p>` : ''}`;
}

/** An as_of before the first load: no chart and no table – they would draw $0 as if nothing had been spent. */
function nothingLoadedSection(n: NothingLoaded): Markup {
  const r = n.request;
  const now = explorerLink(r, (p) => p.delete('as_of'));
  const first = n.firstLoad === undefined ? '' : html` · <a href="${explorerLink(r, (p) => p.set('as_of', n.firstLoad!))}">the view as loaded by the first sync</a>`;
  const text = nothingLoadedText(n);
  return html`<section id="s-explore">${filterList(r)}<p class="verdict" id="nothing-loaded">${text.charAt(0).toUpperCase()}${text.slice(1)}. There are no figures as loaded then, so no chart or table is drawn: $0 would read as no spend.</p>
<p class="note"><a href="${now}">The view as loaded now</a>${first}.</p></section>`;
}

/** The restatements view: one row per period and group whose figure moved, and a one-line verdict. */
function changesSection(r: ExploreRequest, c: Changes): Markup {
  const value = valueText(r);
  const signed = (v: string) => (r.metric === 'cost' ? unitText(v, 'usd', { signed: true, micros: true }) : `${decimalStringToMicros(v) > 0n ? '+' : ''}${value(v)}`);
  const num = (v: string | null) => (v === null ? html`<td class="num" data-v="">–</td>` : html`<td class="num" data-v="${v}">${value(v)}</td>`);
  const diff = (v: string) => html`<td class="${decimalStringToMicros(v) > 0n ? 'num up' : 'num down'}" data-v="${v}">${signed(v)}</td>`;
  const since = c.since.text;
  const now = explorerLink(r, (p) => p.delete('changed_since'));
  const then = explorerLink(r, (p) => (p.delete('changed_since'), p.set('as_of', since)));
  const links = html`<p class="note">The figures as loaded then come from the restatement log, as with as_of. <a href="${now}">The view now</a> · <a href="${then}">the view as loaded at ${since}</a>.</p>`;
  if (c.cells.length === 0) {
    return html`<p class="verdict" id="changes-verdict">No restatement since ${since}: every figure of this view (${value(c.now)} in all) is as loaded then.</p>${links}`;
  }
  const n = c.cells.length;
  const verdict = html`<p class="verdict" id="changes-verdict">${n} ${n === 1 ? 'figure' : 'figures'} restated since ${since}: the view's total moved by ${signed(c.difference)}, from ${value(c.before)} to ${value(c.now)}.</p>`;
  const head = html`<tr><th scope="col" class="pin-l">Period</th>${r.by.map((d) => html`<th scope="col">${dimensionLabel(d)}</th>`)}<th scope="col" class="num">As loaded at ${since}</th><th scope="col" class="num">Now</th><th scope="col" class="num">Difference</th></tr>`;
  const rows = c.cells.map(
    (cell) =>
      html`<tr><th scope="row" class="pin-l">${cell.period}</th>${cell.keys.map((key, i) => {
        const name = cell.names[i] ?? key;
        return html`<th scope="row" data-v="${key}">${name}${name !== key ? html` <span class="cue">${key}</span>` : ''}</th>`;
      })}${num(cell.before)}${num(cell.now)}${diff(cell.difference)}</tr>`,
  );
  const total = html`<tr class="total"><th scope="row" class="pin-l" colspan="${r.by.length + 1}">Whole view</th>${num(c.before)}${num(c.now)}${diff(c.difference)}</tr>`;
  return html`${verdict}<div class="scroll" tabindex="0" role="region" aria-label="Restated figures"><table id="changes-table"><thead>${head}</thead><tbody>${rows}</tbody><tfoot>${total}</tfoot></table></div>
<p class="note">Only the periods and groups whose figure moved; – where the group had nothing. The differences add up to the whole view's.</p>${links}`;
}

/** A saved view's page (saved-views.ts): its request, its title, its description lines, shown above the figures. */
export interface NamedView {
  request: ExploreRequest;
  title: string;
  lines: readonly string[];
}

/** /explore, or with `named` a saved view at /explore/<name>; `after` (the list of saved views) ends the page. */
export async function explorePage(store: Store, ctx: PageContext, config: Config, options: { named?: NamedView; after?: Markup } = {}): Promise<string> {
  const { named, after } = options;
  const request = named?.request ?? (await readExploreRequest(store, ctx.url.searchParams));
  // the form shows the view's own parameters, as if its /explore link had been opened
  const formUrl = named ? new URL(`/explore?${requestParams(request)}`, ctx.url) : ctx.url;
  if (request.changedSince) {
    const [changes, categories, unitMetrics] = [await exploreChanges(store, request), await allocationCategories(store), await offeredUnitMetrics(store)];
    const r = request;
    const lines = [`${r.from} – ${r.to}, per ${r.granularity} · ${r.metric === 'cost' ? 'amounts in USD' : 'estimated GPU-hours'}`, `What changed since ${changes.since.at}`];
    const body = html`<section id="s-changes">${filterList(r)}${changesSection(r, changes)}</section>`;
    return servedPage(ctx, 'Cost explorer: restatements', lines, body, controls(r, categories, unitMetrics, ctx.url));
  }
  const [answer, categories, unitMetrics] = [await exploreView(store, config, request), await allocationCategories(store), await offeredUnitMetrics(store)];
  const r = answer.request;
  const lines = [
    ...(named?.lines ?? []),
    rangeLine(r),
    ...(r.asOf ? [`Figures as loaded at ${r.asOf.at}`] : []),
    ...('table' in answer && !answer.compared.whole ? [comparedLine(answer.compared)] : []),
  ];
  const body = 'table' in answer ? html`<section id="s-explore">${filterList(r)}${chart(answer)}${table(answer)}</section>${after ?? ''}` : html`${nothingLoadedSection(answer)}${after ?? ''}`;
  return servedPage(ctx, named?.title ?? 'Cost explorer', lines, body, controls(r, categories, unitMetrics, formUrl));
}
