// What `gpuledger serve` answers, by path. Pages read the published database through one read-only store kept while
// the file stays the same (published-reader.ts, with this config's allocation rules, as `query` and `report` use), and
// an answer is kept per published file and URL. The SQL page, its CSV and a view's CSV are sql-answer.ts.
import type { Config } from '../config/schema.ts';
import { typeIdKind } from '../query/column-kinds.ts';
import { DatabaseMissingError } from '../query/open-database.ts';
import { queryAll, reportPage, sheetSql, withReportSession, type PageOptions, type ReportDefinition } from '../report/index.ts';
import { breadcrumbs, hrefWith, sectionId } from '../present/index.ts';
import type { Store } from '../store/database.ts';
import { isGpuledgerError, EXIT } from '../util/errors.ts';
import { renderOutput, type Table } from '../util/table-text.ts';
import { alertsPage } from './alerts-page.ts';
import { allocationPage } from './allocation-page.ts';
import { budgetsPage } from './budgets-page.ts';
import { guardrailsPage } from './guardrails-page.ts';
import { drillPage } from './drill-page.ts';
import { explorePage } from './explore-page.ts';
import { savedViewPage, savedViewsList } from './saved-views.ts';
import { exploreCsvTable, readExploreRequest } from '../explore/run-explore.ts';
import { PageError, periodForm, servedPeriod, simulatedAccounts, type PageContext } from './pages.ts';
import { answerCache, type PublishedReader } from './published-reader.ts';
import { publicView, viewPage, viewsPage } from './view-pages.ts';

/** What serve sends back for one request: an HTTP reply (not the API client's ApiAnswer, src/api/answer.ts). */
export interface Reply {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

const HTML = 'text/html; charset=utf-8';
const CSV = 'text/csv; charset=utf-8';
const page = (body: string, status = 200): Reply => ({ status, type: HTML, body });
// a person opens these in a spreadsheet: a name that starts like a formula is written as text (util/csv-cell.ts)
const csv = (table: Table, name: string): Reply => ({ status: 200, type: CSV, body: renderOutput(table, 'csv', { formulaSafe: true }), headers: { 'Content-Disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"` } });

/** A page over the published database: the path's match, the store opened for this request, the page's context. */
type Handler = (match: RegExpExecArray, store: Store, ctx: PageContext) => Promise<Reply>;

/** A report's page, or one table sheet's rows as CSV (/report/nightly/Detail.csv). */
async function reportAnswer([, name, sheetName]: RegExpExecArray, store: Store, ctx: PageContext): Promise<Reply> {
  const period = servedPeriod(ctx.url);
  const slug = ctx.url.searchParams.get('section') ?? undefined;
  // the period's page copies only the views its first section reads twice; a section's own page keeps the report's
  // copies: its table's query runs three times (columns, totals, first rows) over views read once in the definition
  const sheets = slug === undefined ? (def: ReportDefinition) => reportPart(def, `/report/${name}`, period, slug).computed : undefined;
  return withReportSession({ store, config: ctx.config, report: name, period, periodName: 'period', writes: false, sheets }, async (session) => {
    // a page with no value bound would show every table empty: a per-value report is made by the command, per value
    if (session.def.category !== undefined) {
      throw new PageError(404, `report ${name} is rendered per value of an allocation category: run gpuledger report --report ${name} --category <category>`);
    }
    if (sheetName !== undefined) {
      const sheet = session.def.sheets.find((s) => s.name === decodeURIComponent(sheetName));
      if (!sheet || sheet.kind === 'summary') throw new PageError(404, `report ${name} has no table sheet '${decodeURIComponent(sheetName)}'`);
      const result = await queryAll(store, sheetSql(sheet), session.clock.params, `report ${name} sheet ${sheet.name}`);
      const fields = (sheet.columns ?? result.columns.map((c) => ({ field: c.name }))).map((c) => c.field);
      const at = fields.map((f) => result.columns.findIndex((c) => c.name === f));
      return csv({ columns: at.map((i, n) => ({ name: fields[n]!, kind: i < 0 ? 'text' : typeIdKind(result.columns[i]!.typeId) })), rows: result.rows.map((row) => at.map((i) => row[i])) }, `${name}-${session.clock.period.label}-${sheet.name}.csv`);
    }
    const periodQuery = period ? `?${new URLSearchParams({ period })}` : '';
    const { html } = await reportPage(session, {
      servedAt: ctx.url.pathname,
      controls: periodForm(ctx.url, period),
      csvHref: (sheet) => `/report/${name}/${encodeURIComponent(sheet)}.csv${periodQuery}`,
      fullTable: () => 'Download CSV has every row',
      ...reportPart(session.def, `/report/${name}`, period, slug).options,
    });
    return page(html);
  });
}

/**
 * Which part of a report a page shows. The default period's page is computed ahead on publish (default-pages.ts) and
 * shows every section; another period's would run every section's statements while the visitor waits (~8 s on a
 * large account, issue 28), so it shows the first section and links each other one to a page computing it alone.
 */
function reportPart(def: ReportDefinition, path: string, period: string | undefined, slug: string | undefined): { computed: string[]; options: Partial<PageOptions> } {
  const slugOf = (sheet: string) => sectionId(sheet).slice(2);
  const hrefOf = (sheet: string) => hrefWith(path, { period, section: slugOf(sheet) });
  if (slug !== undefined) {
    const sheet = def.sheets.find((s) => slugOf(s.name) === slug);
    if (!sheet) throw new PageError(404, `report ${def.name} has no section '${slug}'; its sections: ${def.sheets.map((s) => slugOf(s.name)).join(', ')}`);
    return {
      computed: [sheet.name],
      options: {
        computes: (name) => name === sheet.name,
        sectionHref: () => undefined,
        pageOf: hrefOf,
        about: false,
        before: breadcrumbs('Report sections', [{ label: def.title, href: hrefWith(path, { period }) }, { label: sheet.name, href: hrefOf(sheet.name) }]),
      },
    };
  }
  if (period === undefined) return { computed: def.sheets.map((s) => s.name), options: {} };
  const first = def.sheets[0]!.name;
  return { computed: [first], options: { computes: (name) => name === first, sectionHref: hrefOf, pageOf: hrefOf } };
}

/**
 * The pages, by path: the first pattern that matches answers. The SQL page and the CSVs that stream (/sql, /sql.csv,
 * /view/<name>.csv) are answered before these, by sql-answer.ts.
 */
export const ROUTES: ReadonlyArray<{ pattern: RegExp; answer: Handler }> = [
  { pattern: /^\/report\/([a-z0-9][a-z0-9-]*)(?:\/(.+)\.csv)?$/, answer: reportAnswer },
  { pattern: /^\/drill$/, answer: async (_m, store, ctx) => page(await drillPage(store, ctx)) },
  { pattern: /^\/allocation$/, answer: async (_m, store, ctx) => page(await allocationPage(store, ctx)) },
  { pattern: /^\/views$/, answer: async (_m, _store, ctx) => page(viewsPage(ctx)) },
  { pattern: /^\/view\/([A-Za-z_][A-Za-z0-9_]*)$/, answer: async ([, name], store, ctx) => page(await viewPage(store, ctx, name!)) },
  { pattern: /^\/alerts$/, answer: async (_m, store, ctx) => page(await alertsPage(store, ctx)) },
  { pattern: /^\/budgets$/, answer: async (_m, store, ctx) => page(await budgetsPage(store, ctx)) },
  { pattern: /^\/guardrails$/, answer: async (_m, store, ctx) => page(await guardrailsPage(store, ctx)) },
  { pattern: /^\/explore$/, answer: async (_m, store, ctx) => page(await explorePage(store, ctx, ctx.config, { after: savedViewsList(ctx.config) })) },
  { pattern: /^\/explore\/([^/]+)$/, answer: async ([, name], store, ctx) => page(await savedViewPage(store, ctx, decodeURIComponent(name!))) },
  {
    pattern: /^\/explore\.csv$/,
    answer: async (_m, store, ctx) => {
      const request = await readExploreRequest(store, ctx.url.searchParams);
      return csv(await exploreCsvTable(store, request), `explore-${request.from}-${request.to}.csv`);
    },
  },
];

async function answer(store: Store, url: URL, config: Config): Promise<Reply> {
  for (const route of ROUTES) {
    const match = route.pattern.exec(url.pathname);
    if (match) return route.answer(match, store, { config, url, simulatedAccounts: await simulatedAccounts(store, config) });
  }
  throw new PageError(404, `no page ${url.pathname}; start at /report/nightly`);
}

/**
 * A view's CSV is the SQL CSV of `select * from <view> order by all` (sql-answer.ts): streamed, bounded like any SQL
 * answer, and byte for byte what `gpuledger query` prints for the same statement – the same sandbox says it.
 */
export function viewCsvQuery(viewName: string): { sql: string; filename: string } {
  const name = publicView(viewName).name;
  return { sql: `select * from ${name} order by all`, filename: `${name}.csv` };
}

export interface RouteDeps {
  config: Config;
  reader: PublishedReader;
  cache: ReturnType<typeof answerCache<Reply>>;
  /** No time limit: a page computed ahead after a publish (page-warmer.ts), for nobody waiting. */
  unbounded?: boolean;
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
    }, { timeLimit: deps.unbounded !== true });
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
