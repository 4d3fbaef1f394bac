// What `gpuledger serve` answers, by path. Pages read the published database through one read-only store kept while
// the file stays the same (published-reader.ts, with this config's allocation rules, as `query` and `report` use), and
// an answer is kept per published file and URL. The SQL page, its CSV and a view's CSV are sql-answer.ts.
import type { Config } from '../config/schema.ts';
import { listPublicViews } from '../query/public-views.ts';
import { columnsOf } from '../query/column-kinds.ts';
import { DatabaseMissingError } from '../query/open-database.ts';
import { esc, queryAll, reportPage, sheetSql, tableHtml, withReportSession } from '../report/index.ts';
import type { Store } from '../store/database.ts';
import { isGpuledgerError, EXIT } from '../util/errors.ts';
import { renderOutput, type Table } from '../util/table-text.ts';
import { drillPage, PAGE_ROWS, PageError, periodForm, resultTable, sandboxTable, shell, simulatedAccounts, type PageContext } from './pages.ts';
import { alertsPage } from './alerts-page.ts';
import { allocationPage } from './allocation-page.ts';
import { explorePage } from './explore-page.ts';
import { exploreCsvTable, readExploreRequest } from '../explore/run-explore.ts';
import { answerCache, type PublishedReader } from './published-reader.ts';

/** What serve sends back for one request: an HTTP reply (not the API client's ApiAnswer, src/api/answer.ts). */
export interface Reply {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

const HTML = 'text/html; charset=utf-8';
const CSV = 'text/csv; charset=utf-8';
const html = (body: string, status = 200): Reply => ({ status, type: HTML, body });
const csv = (table: Table, name: string): Reply => ({ status: 200, type: CSV, body: renderOutput(table, 'csv'), headers: { 'Content-Disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"` } });

// the public views are the files shipped with this build: read once
let views: ReturnType<typeof listPublicViews> | undefined;
const publicViews = () => (views ??= listPublicViews());

function publicView(name: string): ReturnType<typeof listPublicViews>[number] {
  const found = publicViews().find((candidate) => candidate.name === name);
  if (!found) throw new PageError(404, `no public view '${name}' (see /views)`);
  return found;
}

async function answer(store: Store, url: URL, config: Config): Promise<Reply> {
  const ctx: PageContext = { config, url, simulatedAccounts: await simulatedAccounts(store, config) };
  const path = url.pathname;
  const period = url.searchParams.get('period') || undefined;
  const report = /^\/report\/([a-z0-9][a-z0-9-]*)(?:\/(.+)\.csv)?$/.exec(path);
  if (report) {
    const [, name, sheetName] = report;
    return withReportSession({ store, config, report: name, period, writes: false }, async (session) => {
      if (sheetName !== undefined) {
        const sheet = session.def.sheets.find((s) => s.name === decodeURIComponent(sheetName));
        if (!sheet || sheet.kind === 'summary') throw new PageError(404, `report ${name} has no table sheet '${decodeURIComponent(sheetName)}'`);
        const result = await queryAll(store, sheetSql(sheet), session.clock.params, `report ${name} sheet ${sheet.name}`);
        const fields = (sheet.columns ?? result.columns.map((c) => ({ field: c.name }))).map((c) => c.field);
        const at = fields.map((f) => result.columns.findIndex((c) => c.name === f));
        return csv({ columns: fields.map((f) => ({ name: f, kind: 'text' as const })), rows: result.rows.map((row) => at.map((i) => row[i])) }, `${name}-${session.clock.period.label}-${sheet.name}.csv`);
      }
      const base = `/report/${name}`;
      const periodQuery = period ? `?${new URLSearchParams({ period })}` : '';
      const { html: page } = await reportPage(session, {
        formAction: "'self'",
        controls: `<nav class="sections" aria-label="Pages">${['Drill down:/drill', 'Allocation:/allocation', 'Runway:/view/rpt_runway', 'Unit costs:/view/rpt_unit_cost', 'Alerts:/alerts', 'Views:/views', 'SQL:/sql'].map((entry) => entry.split(':')).map(([label, href]) => `<a href="${href}">${label}</a>`).join('')}</nav>${periodForm(url, period)}`,
        csvHref: (sheet) => `${base}/${encodeURIComponent(sheet)}.csv${periodQuery}`,
        fullTable: () => 'Download CSV has every row',
      });
      return html(page);
    });
  }
  if (path === '/drill') return html(await drillPage(store, ctx));
  if (path === '/allocation') return html(await allocationPage(store, ctx));
  if (path === '/explore') return html(await explorePage(store, ctx, config));
  if (path === '/explore.csv') {
    const request = await readExploreRequest(store, url.searchParams);
    return csv(await exploreCsvTable(store, request), `explore-${request.from}-${request.to}.csv`);
  }
  if (path === '/views') {
    const rows = publicViews().map((v) => `<tr><td><a href="/view/${esc(v.name)}">${esc(v.name)}</a></td><td>${esc(v.layer)}</td><td>${esc(v.description)}</td></tr>`).join('');
    return html(shell(ctx, 'Public views', ['Every view of the public SQL interface; each opens as a table with a CSV download.'], `<section id="s-views"><table><thead><tr><th scope="col">View</th><th scope="col">Layer</th><th scope="col">One row is</th></tr></thead><tbody>${rows}</tbody></table></section>`));
  }
  const view = /^\/view\/([A-Za-z_][A-Za-z0-9_]*)$/.exec(path);
  if (view) {
    const name = publicView(view[1]!).name;
    // the page shows the first rows: the view is computed once for them and their count, not converted whole
    const first = await store.connection.runAndReadAll(`with t as materialized (select * from ${name}) select *, (select count(*) from t) as __rows from t order by all limit ${PAGE_ROWS}`);
    const names = first.columnNames().slice(0, -1);
    const rows = first.getRowsJson().map((row) => row.slice(0, -1));
    const total = Number(first.getRowsJson()[0]?.at(-1) ?? 0);
    const table: Table = { columns: columnsOf(names, first.columnTypes().slice(0, -1)), rows };
    const note = total > rows.length ? `<p class="note">The first ${PAGE_ROWS.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows; the CSV has them all.</p>` : '';
    const body = `<section id="s-view"><h2>${esc(name)}</h2><div class="tools"><input type="search" data-filter-table placeholder="Filter rows" aria-label="Filter the rows of ${esc(name)}"><a class="button" href="/view/${esc(name)}.csv" download>Download CSV</a><span class="count" aria-live="polite"></span></div>${note}${tableHtml(sandboxTable(table), config.timeZone, name)}</section>`;
    return html(shell(ctx, name, [publicView(name).description], body));
  }
  if (path === '/alerts') return html(await alertsPage(store, ctx));
  throw new PageError(404, `no page ${path}; start at /report/nightly`);
}

/**
 * A view's CSV is the SQL CSV of `select * from <view> order by all` (sql-answer.ts): streamed, bounded like any SQL
 * answer, and byte for byte what `gpuledger query` prints for the same statement – the same sandbox says it.
 */
export function viewCsvQuery(pathname: string): { sql: string; filename: string } | undefined {
  const match = /^\/view\/([A-Za-z_][A-Za-z0-9_]*)\.csv$/.exec(pathname);
  if (!match) return undefined;
  const name = publicView(match[1]!).name;
  return { sql: `select * from ${name} order by all`, filename: `${name}.csv` };
}

export interface RouteDeps {
  config: Config;
  reader: PublishedReader;
  cache: ReturnType<typeof answerCache<Reply>>;
}

export async function route(url: URL, deps: RouteDeps): Promise<Reply> {
  if (url.pathname === '/' || url.pathname === '') return { status: 302, type: 'text/plain; charset=utf-8', body: '', headers: { Location: '/report/nightly' } };
  if (url.pathname === '/favicon.ico') return { status: 204, type: 'text/plain', body: '' };
  // the same file answers the same URL the same way: computed once per publish, and a page computed before is
  // answered at once, not after the turn of a slow page being computed now
  const keyOf = (identity: string) => `${identity} ${url.pathname}${url.search}`;
  const ready = deps.cache.get(keyOf(deps.reader.identity()));
  if (ready) return ready;
  try {
    return await deps.reader.use(async (store, identity) => {
      const key = keyOf(identity);
      const cached = deps.cache.get(key);
      if (cached) return cached;
      const fresh = await answer(store, url, deps.config);
      if (fresh.status === 200) deps.cache.set(key, fresh);
      return fresh;
    });
  } catch (error) {
    return errorAnswer(error);
  }
}

/** A request the user can put right, said in one line: a bad ?period=, an unknown report or page. Anything else
 * is thrown on (the server answers 500), and a database not there yet is the server's own page. */
export function errorAnswer(error: unknown): Reply {
  if (error instanceof PageError) return { status: error.status, type: 'text/plain; charset=utf-8', body: `${error.message}\n` };
  if (isGpuledgerError(error) && error.exitCode === EXIT.usage && !(error instanceof DatabaseMissingError)) return { status: 400, type: 'text/plain; charset=utf-8', body: `${error.message}\n` };
  throw error;
}
