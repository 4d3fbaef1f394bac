// The pages of `gpuledger serve` beyond the report itself: drill-down from a family to what it is made of and to one
// resource's daily cost, any public view as a table, the alert history, and the SQL page. Each is the report's page
// shell and tables (src/report/html), over the published database opened for the one request.
import type { Config } from '../config/schema.ts';
import { columnHeading, esc, htmlPage, inferFormat, printedFormat, queryAll, readAccounts, resetReportVariables, setReportClock, tableHtml, type HtmlTable } from '../report/index.ts';
import type { Store } from '../store/database.ts';
import type { Table } from '../util/table-text.ts';

/** Rows a serve page shows; the CSV link has them all. */
export const PAGE_ROWS = 1000;

export interface PageContext {
  config: Config;
  url: URL;
  simulatedAccounts: string[];
}

export const NAV: Array<[string, string]> = [
  ['Report', '/report/nightly'],
  ['Drill down', '/drill'],
  ['Runway', '/view/rpt_runway'],
  ['Unit costs', '/view/rpt_unit_cost'],
  ['Allocation', '/allocation'],
  ['Alerts', '/alerts'],
  ['Views', '/views'],
  ['SQL', '/sql'],
];

/** The accounts whose data is simulated: every page says so in its banner. */
export async function simulatedAccounts(store: Store, config: Config): Promise<string[]> {
  return (await readAccounts(store, config)).filter((account) => account.simulated).map((account) => account.account);
}

export function shell(ctx: PageContext, title: string, lines: string[], body: string, controls = ''): string {
  const nav = NAV.map(([label, href]) => `<a href="${esc(href)}">${esc(label)}</a>`).join('');
  return htmlPage({ title, lines, simulatedAccounts: ctx.simulatedAccounts, nav: [], body, formAction: "'self'", controls: `<nav class="sections" aria-label="Pages">${nav}</nav>${controls}` });
}

/** A period picker that keeps the page's other parameters: a view is a link (?period=2026-10). */
export function periodForm(url: URL, period: string | undefined): string {
  const hidden = [...url.searchParams].filter(([name]) => name !== 'period').map(([name, value]) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`).join('');
  return (
    `<form class="tools" method="get" action="${esc(url.pathname)}">${hidden}<label>Period <input name="period" value="${esc(period ?? '')}" placeholder="2026-10 or 2026-10-01..2026-10-15" aria-label="Period"></label>` +
    '<button type="submit">Show</button></form>'
  );
}

/** A query result (report/query.ts) as a page table, every column formatted from its SQL type. */
export function resultTable(result: Awaited<ReturnType<typeof queryAll>>, options: { emptyText?: string } = {}): HtmlTable {
  const columns = result.columns.map((c) => {
    const format = inferFormat(c.typeId, c.name);
    return { field: c.name, header: columnHeading(c.name), format, upIsBad: /change/.test(c.name) && format !== 'text' };
  });
  return { columns, rows: result.rows.slice(0, PAGE_ROWS), totalRows: result.rows.length, emptyText: options.emptyText ?? 'No rows.' };
}

/** A sandboxed query's result (query/run-query.ts) as a page table. */
export function sandboxTable(result: Table): HtmlTable {
  return {
    columns: result.columns.map((c) => ({ field: c.name, header: c.name, format: printedFormat(c.name, c.kind), upIsBad: false })),
    rows: result.rows.slice(0, PAGE_ROWS),
    totalRows: result.rows.length,
    emptyText: '(no rows)',
  };
}

const DIMENSIONS = {
  template: { field: 'template_name', label: 'Template' },
  endpoint: { field: 'endpoint_name', label: 'Endpoint' },
  gpu_type: { field: 'gpu_type_name', label: 'GPU type' },
} as const;
type Dimension = keyof typeof DIMENSIONS;

function link(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
  return `/drill?${search}`;
}

/** A table whose first column links one level down. */
function linked(table: HtmlTable, timeZone: string, href: (row: unknown[]) => string): string {
  const html = tableHtml(table, timeZone, 'drill-down');
  let i = 0;
  // the first cell of each body row becomes a link; the exact values stay in data-v
  return html.replace(/<tr><td([^>]*)>([^<]*)<\/td>/g, (_m, attrs: string, text: string) => `<tr><td${attrs}><a href="${esc(href(table.rows[i++]!))}">${text}</a></td>`);
}

/**
 * family → template / endpoint / GPU type → resource → its daily cost, over rpt_cost_detail for the period. Every
 * level is a link, and the path back is a breadcrumb.
 */
export async function drillPage(store: Store, ctx: PageContext): Promise<string> {
  const search = ctx.url.searchParams;
  const clock = await setReportClock(store, { periodText: search.get('period') ?? undefined, defaultPeriod: 'month_to_date', budgetMonthly: undefined });
  try {
    const period = search.get('period') ?? undefined;
    const family = search.get('family') ?? undefined;
    const by = (search.get('by') ?? undefined) as Dimension | undefined;
    if (by !== undefined && !(by in DIMENSIONS)) throw new PageError(400, `by must be ${Object.keys(DIMENSIONS).join(', ')}, got '${by}'`);
    const value = search.get('value') ?? undefined;
    const resource = search.get('resource') ?? undefined;
    const range = { start: clock.period.start, end: clock.period.end };
    const where = ['day between $start::date and $end::date'];
    const params: Record<string, string> = { ...range };
    if (family) (where.push('family = $family'), (params.family = family));
    if (by && value !== undefined) (where.push(`coalesce(${DIMENSIONS[by].field}, '(none)') = $value`), (params.value = value));
    if (resource) (where.push('resource_id = $resource'), (params.resource = resource));
    const filter = where.join(' and ');
    const crumbs: Array<[string, string]> = [['All families', link({ period })]];
    if (family) crumbs.push([family, link({ period, family })]);
    if (by && value !== undefined) crumbs.push([`${DIMENSIONS[by].label}: ${value}`, link({ period, family, by, value })]);
    if (resource) crumbs.push([resource, link({ period, family, by, value, resource })]);
    const parts: string[] = [`<nav aria-label="Drill-down path"><p>${crumbs.map(([label, href]) => `<a href="${esc(href)}">${esc(label)}</a>`).join(' › ')}</p></nav>`];
    const rowsOf = (sql: string) => queryAll(store, sql, params, 'drill-down');
    if (resource) {
      const daily = await rowsOf(`select day, component, sum(amount) as amount from rpt_cost_detail where ${filter} group by all order by day, component`);
      parts.push(`<section id="s-resource"><h2>Daily cost of ${esc(resource)}</h2>${tableHtml(resultTable(daily), ctx.config.timeZone, 'daily cost')}</section>`);
    } else if (!family) {
      const table = resultTable(await rowsOf(`select family, sum(amount) as amount from rpt_cost_detail where ${filter} group by all order by amount desc, family`));
      parts.push(`<section id="s-families"><h2>Cost by family</h2>${linked(table, ctx.config.timeZone, (row) => link({ period, family: String(row[0]) }))}</section>`);
    } else if (!(by && value !== undefined)) {
      for (const [key, d] of Object.entries(DIMENSIONS)) {
        const table = resultTable(await rowsOf(`select coalesce(${d.field}, '(none)') as ${d.field}, sum(amount) as amount from rpt_cost_detail where ${filter} group by all order by amount desc, 1`));
        parts.push(`<section id="s-${key}"><h2>${esc(family)} by ${esc(d.label.toLowerCase())}</h2>${linked(table, ctx.config.timeZone, (row) => link({ period, family, by: key, value: String(row[0]) }))}</section>`);
      }
    } else {
      const table = resultTable(await rowsOf(`select resource_id, any_value(resource_name) as resource_name, sum(amount) as amount from rpt_cost_detail where ${filter} group by resource_id order by amount desc, resource_id`));
      parts.push(`<section id="s-resources"><h2>Resources</h2>${linked(table, ctx.config.timeZone, (row) => link({ period, family, by, value, resource: String(row[0]) }))}</section>`);
    }
    return shell(ctx, 'Drill down', [`${clock.period.title} · amounts in USD`], parts.join(''), periodForm(ctx.url, period));
  } finally {
    await resetReportVariables(store);
  }
}

/** A request the page cannot answer as asked: its status and one line saying why. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
