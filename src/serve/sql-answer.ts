// The SQL page and its CSV (issue 26 §3), and a view's CSV (the same answer to our own statement): SQL from the
// browser runs through exactly the sandbox of `gpuledger query` on a store of its own, opened for the one request and
// closed when answered, and one careless or hostile query must not take serve down with it. So the answer is read from DuckDB a chunk at a time: the page reads only the rows it
// shows (and one more, to know there are more – counting them all would run the whole query), the CSV goes to the
// socket chunk by chunk at the pace the client reads it. The time limit holds for the whole answer: when it passes,
// the query is interrupted and a CSV already under way is cut off (the client sees a broken transfer, never a short
// file that looks whole). At most SQL_AT_ONCE such requests run at once, each DuckDB instance with a memory limit and
// one thread, so the pages keep answering beside them.
import type { ServerResponse } from 'node:http';
import { withRulesReader } from '../allocation/reader-rules.ts';
import type { Config } from '../config/schema.ts';
import { unitText } from '../model/index.ts';
import { streamReadOnlyQuery, type QueryStream } from '../query/run-query.ts';
import { dataTable, html, rowsNote, section, type Markup } from '../present/index.ts';
import type { Store } from '../store/database.ts';
import { errorMessage, isGpuledgerError } from '../util/errors.ts';
import { csvLine } from '../util/table-text.ts';
import { PAGE_ROWS, PageError, sandboxTable, servedPage, simulatedAccounts, type PageContext } from './pages.ts';
import { Deadline } from './deadline.ts';
import { examplesSection, schemaSection, sqlForm } from './sql-page.ts';

/** The longest a SQL page or CSV may take, query and answer, before it is stopped. */
export const SQL_TIME_LIMIT_MS = 30_000;
/** SQL requests answered at once; more get 503 and Retry-After. */
export const SQL_AT_ONCE = 2;
/** DuckDB memory per SQL request (no spilling: the sandbox has no temp folder). */
export const SQL_MEMORY_LIMIT = '256MB';
/** A text value longer than this is cut on the page (the CSV has it whole). */
const CELL_CHARS = 2_000;
/** The page stops taking rows past this much text, whatever their number. */
const PAGE_CHARS = 2_000_000;

export interface SqlAnswer {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

export interface SqlDeps {
  dbPath: string;
  config: Config;
  timeLimitMs: number;
}

const SQL_LINES = ['Runs in the same sandbox as gpuledger query: reads the database only, writes nothing.'];
const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

/** What to tell about a failed query: the time limit when it passed, and where more memory is to be had. */
function shownError(error: unknown, deadline: Deadline, limitMs: number): unknown {
  if (deadline.expired) return timedOut(limitMs);
  if (isGpuledgerError(error) && /Out of Memory Error/.test(error.message)) {
    return new PageError(400, `${error.message} – the SQL page gives a query ${SQL_MEMORY_LIMIT}; gpuledger query on the command line has no such limit`);
  }
  return error;
}

function timedOut(limitMs: number): PageError {
  return new PageError(408, `the query ran longer than ${limitMs / 1000} s and was stopped; narrow it (a where clause, a limit) or download less`);
}

/** The first rows of a result, one past the page when there are more, and whether a long value was cut. */
async function firstRows(stream: QueryStream): Promise<{ rows: unknown[][]; more: boolean; cut: boolean }> {
  const rows: unknown[][] = [];
  let chars = 0;
  let cut = false;
  for await (const chunk of stream.chunks()) {
    for (const row of chunk) {
      if (rows.length === PAGE_ROWS || chars > PAGE_CHARS) return { rows, more: true, cut };
      rows.push(
        row.map((value) => {
          const text = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : undefined;
          chars += text?.length ?? 8;
          if (text === undefined || text.length <= CELL_CHARS) return value;
          cut = true;
          return `${text.slice(0, CELL_CHARS)}…`;
        }),
      );
    }
  }
  return { rows, more: false, cut };
}

async function page(store: Store, ctx: PageContext, query: string | null, deadline: Deadline, limitMs: number): Promise<SqlAnswer> {
  // the examples and the schema under every state of the page: what to ask is beside where to ask it
  const after = async () => html`${examplesSection()}${await schemaSection(store, ctx.config.timeZone)}`;
  const answer = async (body: Markup, status = 200): Promise<SqlAnswer> => ({ status, type: HTML, body: servedPage(ctx, 'SQL', SQL_LINES, html`${sqlForm(query)}${body}${await after()}`) });
  if (!query || !query.trim()) return answer(html``);
  try {
    const stream = await streamReadOnlyQuery(store, query, { limits: { memoryLimit: SQL_MEMORY_LIMIT, threads: 1 } });
    const { rows, more, cut } = await firstRows(stream);
    const count = more ? `${unitText(rows.length, 'count')}+ rows` : `${unitText(rows.length, 'count')} rows`;
    const table = { ...sandboxTable({ columns: stream.columns, rows }), totalRows: rows.length };
    const notes = [
      rowsNote({ shown: rows.length, total: more ? 'more' : rows.length, rest: 'the CSV has them all' }),
      cut ? html`<p class="note">Values longer than ${unitText(CELL_CHARS, 'count')} characters are cut short here; the CSV has them whole.</p>` : '',
    ];
    const tools = html`<div class="tools"><a class="button" href="/sql.csv?${new URLSearchParams({ q: query }).toString()}" download>Download CSV</a><span>${count}</span></div>`;
    return answer(section({ id: 's-result', title: 'Result', body: [tools, notes, dataTable({ ...table, label: 'result', timeZone: ctx.config.timeZone })] }));
  } catch (error) {
    const shown = shownError(error, deadline, limitMs);
    if (!isGpuledgerError(shown) && !(shown instanceof PageError)) throw shown;
    return answer(html`<p class="error" role="alert">${errorMessage(shown)}</p>`, shown instanceof PageError ? shown.status : 400);
  }
}

/** Resolves true when the text is handed to the socket, false when the response closed first. */
function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', drained);
      res.off('close', closed);
      resolve(ok);
    };
    const drained = () => done(true);
    const closed = () => done(false);
    res.on('drain', drained);
    res.on('close', closed);
  });
}

/** The CSV, written to res as it is read; undefined once it has answered itself. */
async function csvDownload(store: Store, query: string, filename: string, res: ServerResponse, head: boolean, headers: Record<string, string>, deadline: Deadline, limitMs: number): Promise<SqlAnswer | undefined> {
  let stream: QueryStream;
  try {
    stream = await streamReadOnlyQuery(store, query, { limits: { memoryLimit: SQL_MEMORY_LIMIT, threads: 1 } });
  } catch (error) {
    const shown = shownError(error, deadline, limitMs);
    if (!isGpuledgerError(shown) && !(shown instanceof PageError)) throw shown;
    return { status: shown instanceof PageError ? shown.status : 400, type: TEXT, body: `${errorMessage(shown)}\n` };
  }
  res.writeHead(200, { ...headers, 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"` });
  if (head) return void res.end();
  try {
    // a person opens it in a spreadsheet: a text cell that starts like a formula is written as text (util/csv-cell.ts)
    const safe = { formulaSafe: true };
    if (!(await write(res, csvLine(stream.columns.map((c) => c.name), undefined, safe)))) return;
    for await (const chunk of stream.chunks()) {
      if (!(await write(res, chunk.map((r) => csvLine(r, stream.columns, safe)).join('')))) return; // the client left, or the time ran out
    }
    res.end();
  } catch {
    // a failure mid-way (the time limit, DuckDB's memory limit): the status is sent, so the transfer is broken off
    res.destroy();
  }
  return undefined;
}

/** /sql and /sql.csv – or the CSV of our own statement (`fixed`: a view's) –, at most SQL_AT_ONCE at a time. */
export function sqlAnswerer(deps: SqlDeps) {
  let running = 0;
  return async (url: URL, res: ServerResponse, head: boolean, headers: Record<string, string>, fixed?: { sql: string; filename: string }): Promise<SqlAnswer | undefined> => {
    if (running >= SQL_AT_ONCE) {
      return { status: 503, type: TEXT, body: `gpuledger serve is already answering ${SQL_AT_ONCE} SQL queries; try again in a few seconds\n`, headers: { 'Retry-After': '5' } };
    }
    running++;
    // a CSV under way is cut off when the time is up, whatever it is waiting for (DuckDB or a slow reader)
    const deadline = new Deadline(deps.timeLimitMs, () => res.headersSent && res.destroy());
    const closed = () => deadline.store?.connection.interrupt(); // the client left: stop computing for nobody
    res.on('close', closed);
    try {
      return await withRulesReader(deps.dbPath, deps.config.allocation, async (store) => {
        deadline.store = store;
        if (deadline.expired) throw timedOut(deps.timeLimitMs); // opening took the time: no query is started
        const query = fixed?.sql ?? url.searchParams.get('q');
        if (fixed || url.pathname === '/sql.csv') return csvDownload(store, query ?? '', fixed?.filename ?? 'query.csv', res, head, headers, deadline, deps.timeLimitMs);
        const ctx: PageContext = { config: deps.config, url, simulatedAccounts: await simulatedAccounts(store, deps.config) };
        return page(store, ctx, query, deadline, deps.timeLimitMs);
      });
    } finally {
      deadline.clear();
      res.off('close', closed);
      running--;
    }
  };
}
