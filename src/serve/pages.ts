// What every page of `gpuledger serve` shares: the page's context, the shell (the presentation layer's page with the
// site's navigation), the period picker, query results as page tables, and the one-line error a page answers with.
// The pages themselves: drill-page.ts, view-pages.ts, alerts-page.ts, allocation-page.ts, sql-answer.ts and the
// report (routes.ts).
import type { Config } from '../config/schema.ts';
import { html, pageDocument, type Markup, type TableColumn } from '../present/index.ts';
import { columnHeading, inferFormat, parsePeriod, printedFormat, queryAll, readAccounts } from '../report/index.ts';
import type { Store } from '../store/database.ts';
import { rangeProblem } from '../util/dates.ts';
import type { Table } from '../util/table-text.ts';
import { upIsBad } from '../model/semantic.ts';

/** Rows a serve page shows; the CSV link has them all. */
export const PAGE_ROWS = 1000;

export interface PageContext {
  config: Config;
  url: URL;
  simulatedAccounts: string[];
}

/** The accounts whose data is simulated: every page says so in its banner. */
export async function simulatedAccounts(store: Store, config: Config): Promise<string[]> {
  return (await readAccounts(store, config)).filter((account) => account.simulated).map((account) => account.account);
}

/** A served page: the shell with the site's navigation, this page marked in it. */
export function servedPage(ctx: PageContext, title: string, lines: readonly string[], body: Markup, controls?: Markup): string {
  return pageDocument({ title, lines, simulatedAccounts: ctx.simulatedAccounts, servedAt: ctx.url.pathname, controls, body });
}

/**
 * The page's ?period=, checked before any database work as the explorer checks its range: a month or day range the
 * calendar has, years to 9999 (util/dates.ts, in the words of --period), at most MAX_RANGE_DAYS days – the chart
 * and the tables of a page are drawn per day, so 2.9 million of them held every page for a minute (issue 37).
 */
export function servedPeriod(url: URL): string | undefined {
  const text = url.searchParams.get('period') || undefined;
  if (text === undefined) return undefined;
  const period = parsePeriod(text, 'period');
  const problem = rangeProblem(period.start, period.end, `the range of period ${text}`);
  if (problem !== undefined) throw new PageError(400, problem);
  return text;
}

/** A period picker that keeps the page's other parameters: a view is a link (?period=2026-10). */
export function periodForm(url: URL, period: string | undefined): Markup {
  const hidden = [...url.searchParams].filter(([name]) => name !== 'period').map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<form class="tools" method="get" action="${url.pathname}">${hidden}<label>Period <input name="period" value="${period ?? ''}" placeholder="2026-10 or 2026-10-01..2026-10-15" aria-label="Period"></label><button type="submit">Show</button></form>`;
}

/**
 * A table of a served page, as present's dataTable takes it but for what the page adds (its label, the time zone):
 * a page changes its columns' links and headings before it draws it.
 */
export interface ServedTable {
  columns: TableColumn[];
  rows: unknown[][];
  totalRows: number;
  totals?: Record<string, unknown>;
  emptyText: string;
}

/** A query result (report/query.ts) as a page table, every column formatted from its SQL type. */
export function resultTable(result: Awaited<ReturnType<typeof queryAll>>, options: { emptyText?: string } = {}): ServedTable {
  const columns = result.columns.map((c): TableColumn => {
    const unit = inferFormat(c.typeId, c.name);
    return { field: c.name, header: columnHeading(c.name), unit, upIsBad: upIsBad(c.name) && unit !== 'text' };
  });
  return { columns, rows: result.rows.slice(0, PAGE_ROWS), totalRows: result.rows.length, emptyText: options.emptyText ?? 'No rows.' };
}

/** A sandboxed query's result (query/run-query.ts) as a page table. */
export function sandboxTable(result: Table): ServedTable {
  return {
    columns: result.columns.map((c) => ({ field: c.name, header: c.name, unit: printedFormat(c.name, c.kind), upIsBad: false })),
    rows: result.rows.slice(0, PAGE_ROWS),
    totalRows: result.rows.length,
    emptyText: '(no rows)',
  };
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
