// npm run bench:serve – each page of `gpuledger serve` on the bench:views database (11.8 M cost rows), and the HTML
// report against its workbook. Four figures, each judged against a goal:
//
//  1. p95 per page: 12 requests per page after one warm-up, over real HTTP to a server in this process that computes
//     every answer (its answer cache off; the published file stays open, as between two publishes) (goal ≤ 0.5 s for
//     a page serve does not compute ahead). Reported beside it, not judged: the first request of a fresh server (the
//     file opened too), and the p95 with the answer cache on (a page asked for again before the next publish).
//  1b. after a publish: serve computes its default pages (src/serve/default-pages.ts) when it sees a newly published
//     file. On a copy of the database, a fresh server is started and timed until its default pages are ready; then a
//     new file is published over it (a copy renamed into place, as `publish` does) and timed from the rename until the
//     pages are ready again, and each default page's first request after that (goal ≤ 0.5 s) – the first visitor's
//     wait – is measured on its own. Also reported: a request sent at the moment of the publish, which waits for the
//     warm-up's computation of that page instead of starting its own.
//  2. page ÷ floor per page: the floor is the page's own statements – captured from the DuckDB connection while the
//     page was answered, the same SQL with the same parameters – run alone on a database opened read-only once, best
//     of 3 after a warm-up (goal ≤ 2×). What the page adds is HTTP, the HTML, and for the SQL page a sandboxed store of its own.
//  3. the nightly report as HTML ÷ as xlsx: both written in one report session on the same database, best of 3 each
//     (goal ≤ 1.2).
//
// Writes bench/results/serve.json. BENCH_VIEWS_DB=path reuses the bench:views database (built once if missing).
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBConnection } from '@duckdb/node-api';
import { parseConfig } from '../src/config/load.ts';
import type { Config } from '../src/config/schema.ts';
import { writeHtmlReport } from '../src/report/html/index.ts';
import { writeWorkbook } from '../src/report/render.ts';
import { withReportSession } from '../src/report/report-session.ts';
import { loadReportDefinition, sectionId } from '../src/report/index.ts';
import { defaultPages } from '../src/serve/default-pages.ts';
import { fileIdentity } from '../src/serve/published-reader.ts';
import { startServe } from '../src/serve/index.ts';
import { openStore } from '../src/store/database.ts';
import { silentLogger } from '../src/util/log.ts';
import { viewsDatabase } from './views-db.ts';

const RESULT = fileURLToPath(new URL('./results/serve.json', import.meta.url));
const GOALS = { p95Ms: 500, ratio: 2, exploreRatio: 1.5, htmlRatio: 1.2 };
const RUNS = 12;
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const log = (s: string) => process.stderr.write(s + '\n');

// ---- the statements a page runs, captured at the connection ----------------------------------------------------
type Statement = { sql: string; values?: unknown; types?: unknown };
let captured: Statement[] | undefined;
for (const method of ['run', 'runAndReadAll', 'stream', 'streamAndReadAll'] as const) {
  const original = (DuckDBConnection.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!;
  (DuckDBConnection.prototype as unknown as Record<string, unknown>)[method] = function (this: unknown, sql: string, values?: unknown, types?: unknown, ...rest: unknown[]) {
    captured?.push({ sql, values, types });
    return original.call(this, sql, values, types, ...rest);
  };
}

async function timeGet(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status, bytes: body.byteLength };
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!;
}

/**
 * A fresh server on a copy of the database, then a new file published over it: how long until the default pages are
 * ready, and what their first visitors wait.
 */
async function afterPublish(source: string, config: Config): Promise<Record<string, unknown> & { passed: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-publish-'));
  const db = join(dir, 'published.duckdb');
  const ahead = defaultPages(config);
  try {
    copyFileSync(source, db);
    let t = performance.now();
    const server = await startServe({ dbPath: db, config, host: '127.0.0.1', port: 0, log: silentLogger });
    try {
      await server.warmed();
      const freshReadyMs = performance.now() - t;
      // publish: a new file (a copy, its own inode) renamed over the one being read, as src/store/publish.ts does
      copyFileSync(source, `${db}.next`);
      const before = fileIdentity(db);
      renameSync(`${db}.next`, db);
      t = performance.now();
      const atPublish = timeGet(server.url + ahead[0]!); // someone asking at once waits on the warm-up's computation
      let done = await server.warmed();
      while (!done || done.identity === before || done.superseded) done = await server.warmed();
      const readyMs = performance.now() - t;
      const asked = await atPublish;
      const firsts: Record<string, number> = {};
      for (const p of ahead) {
        const r = await timeGet(server.url + p);
        if (r.status !== 200) throw new Error(`${p} answered ${r.status} after a publish`);
        firsts[p] = round(r.ms, 1);
      }
      const worst = Math.max(...Object.values(firsts));
      return {
        measured: 'a fresh server started on a copy of the database, then a new copy renamed over it while it runs',
        pages: ahead,
        fresh_server_ready_ms: round(freshReadyMs, 0),
        ready_after_publish_ms: round(readyMs, 0),
        computed_after_publish_ms: Object.fromEntries(done.pages.map((p) => [p.path, round(p.ms, 0)])),
        first_request_after_ready_ms: firsts,
        request_sent_at_the_publish: { path: ahead[0], ms: round(asked.ms, 0), status: asked.status },
        worst_first_request_ms: worst,
        passed: worst <= GOALS.p95Ms,
      };
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg().map((x) => round(x));
  const { path } = await viewsDatabase();
  const config = parseConfig({ accounts: [{ name: 'bench', apiKeyEnv: 'X' }] }, 'bench');
  const serve = await startServe({ dbPath: path, config, host: '127.0.0.1', port: 0, log: silentLogger, cacheAnswers: false });
  // answers kept, nothing computed ahead: a warm-up running beside the measurements would slow them
  const cached = await startServe({ dbPath: path, config, host: '127.0.0.1', port: 0, log: silentLogger, warmPages: false });
  const pages: Record<string, unknown> = {};
  const ahead = defaultPages(config);
  let passed = true;
  try {
    // the largest template and resource of the month, so the drill-down pages read real rows
    const probe = await openStore({ path, readOnly: true, command: 'bench' });
    const top = await probe.one<{ template: string; resource: string }>(
      `select coalesce(template_name, '(none)') as template, arg_max(resource_id, amount) as resource from rpt_cost_detail
       where family = 'pod' and day >= date_trunc('month', (select max(day) from cost_daily)) group by 1 order by sum(amount) desc limit 1`,
    );
    // the explorer over the last whole month of the data, by each grouping, per day (issue 27 §2)
    const month = await probe.one<{ from: string; to: string }>(
      `select strftime(m - interval 1 month, '%Y-%m-%d') as "from", strftime(m - interval 1 day, '%Y-%m-%d') as "to"
       from (select date_trunc('month', max(day)) as m from cost_daily)`,
    );
    const categories = (await probe.all<{ category: string }>('select category from dim_allocation_category order by 1')).map((c) => `category:${c.category}`);
    await probe.close();
    const explore = ['family', 'template', 'endpoint', 'gpu_type', 'resource', 'account', 'component', ...categories.slice(0, 1)].map(
      (by) => `/explore?${new URLSearchParams({ from: month!.from, to: month!.to, granularity: 'day', by })}`,
    );
    const drill = new URLSearchParams({ family: 'pod', by: 'template', value: top!.template });
    const previousMonth = (await (async () => {
      const s = await openStore({ path, readOnly: true, command: 'bench' });
      try {
        // awaited here, before the finally closes the store: closing under a running statement crashed this bench
        return await s.one<{ month: string }>(`select strftime(date_trunc('month', max(day)) - interval 1 month, '%Y-%m') as month from cost_daily`);
      } finally {
        await s.close();
      }
    })())!.month;
    const paths = [
      '/report/nightly',
      // a period nobody asked for before: the report computed while the visitor waits
      `/report/nightly?period=${previousMonth}`,
      // its other sections, each a page of its own (that page links them)
      ...loadReportDefinition('nightly', undefined)
        .sheets.slice(1)
        .map((sheet) => `/report/nightly?${new URLSearchParams({ period: previousMonth, section: sectionId(sheet.name).slice(2) })}`),
      '/drill',
      '/drill?family=pod',
      `/drill?${drill}`,
      `/drill?${drill}&${new URLSearchParams({ resource: top!.resource })}`,
      '/view/rpt_runway',
      '/view/rpt_unit_cost',
      '/view/rpt_by_category',
      '/alerts',
      '/views',
      `/sql?${new URLSearchParams({ q: 'select family, sum(amount) as amount from cost_daily group by 1 order by 1' })}`,
      ...explore,
    ];
    // BENCH_SERVE_PAGES=/explore,/alerts: only the pages whose path starts with one of these (no result file: not a complete run)
    const only = process.env.BENCH_SERVE_PAGES?.split(',');
    for (const p of only ? paths.filter((path) => only.some((prefix) => path.startsWith(prefix))) : paths) {
      log(`${p}…`);
      // the first request of a fresh server: the published file is opened too
      const fresh = await startServe({ dbPath: path, config, host: '127.0.0.1', port: 0, log: silentLogger, cacheAnswers: false });
      const cold = await timeGet(fresh.url + p);
      await fresh.close();
      await timeGet(cached.url + p);
      const hits: number[] = [];
      for (let i = 0; i < RUNS; i++) hits.push((await timeGet(cached.url + p)).ms);
      await timeGet(serve.url + p); // the server's store is open before the statements are captured
      captured = [];
      const warm = await timeGet(serve.url + p);
      const statements = captured;
      captured = undefined;
      if (warm.status !== 200) throw new Error(`${p} answered ${warm.status}`);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await timeGet(serve.url + p)).ms);
      // the floor: the same statements, alone, on a database opened once and warmed by the first of 3 runs (best of
      // 3). The SQL page's sandbox locks its store's settings for good: on the later runs those SETs are refused and
      // skipped – they cost nothing – while every query runs.
      let floor = Infinity;
      let byStatement: number[] = [];
      const store = await openStore({ path, readOnly: true, command: 'bench' });
      try {
        for (let r = 0; r < 3; r++) {
          const t = performance.now();
          const each: number[] = [];
          for (const s of statements) {
            const ts = performance.now();
            try {
              await store.connection.runAndReadAll(s.sql, s.values as never, s.types as never);
            } catch (e) {
              if (r === 0 || !/configuration has been locked|Cannot change configuration/.test(String(e))) throw e;
            }
            each.push(performance.now() - ts);
          }
          const total = performance.now() - t;
          if (total < floor) (floor = total), (byStatement = each);
        }
      } finally {
        await store.close();
      }
      const page95 = p95(times);
      const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
      const ratio = median / floor;
      // a page serve computes ahead is judged by its first request after a publish (below), not computed per request
      const precomputed = ahead.includes(p);
      const goalRatio = p.startsWith('/explore') ? GOALS.exploreRatio : GOALS.ratio;
      const ok = (precomputed || page95 <= GOALS.p95Ms) && ratio <= goalRatio;
      passed &&= ok;
      // where the time goes: the page's slowest statements in the best floor run
      const slowest = statements
        .map((s, i) => ({ ms: round(byStatement[i]!, 1), sql: s.sql.replace(/\s+/g, ' ').trim().slice(0, 160) }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, page95 > GOALS.p95Ms ? 8 : 0);
      pages[p] = {
        precomputed_after_publish: precomputed,
        p95_ms: round(page95, 1),
        median_ms: round(median, 1),
        floor_ms: round(floor, 1),
        ratio: round(ratio),
        goal_ratio: goalRatio,
        statements: statements.length,
        bytes: warm.bytes,
        passed: ok,
        first_request_of_a_fresh_server_ms: round(cold.ms, 1),
        cached_p95_ms: round(p95(hits), 1),
        ...(slowest.length ? { slowest_statements_of_the_floor: slowest } : {}),
      };
      log(`  p95 ${round(page95, 1)} ms, median ${round(median, 1)} ms, floor ${round(floor, 1)} ms (${statements.length} statements) → ${round(ratio)}× ${ok ? 'ok' : 'MISSED'}; fresh server ${round(cold.ms, 1)} ms, cached p95 ${round(p95(hits), 1)} ms`);
    }
  } finally {
    await serve.close();
    await cached.close();
  }

  if (process.env.BENCH_SERVE_PAGES !== undefined) {
    process.stdout.write(`${passed ? 'goals met' : 'some goals MISSED'} (BENCH_SERVE_PAGES: only some pages measured, nothing written)\n`);
    return;
  }

  log('after a publish: the default pages computed ahead…');
  const published = await afterPublish(path, config);
  passed &&= published.passed;
  log(`  fresh server ready in ${published.fresh_server_ready_ms} ms; ready ${published.ready_after_publish_ms} ms after a publish; worst first request ${published.worst_first_request_ms} ms`);

  // the nightly report, HTML against xlsx, in one session
  log('nightly report: xlsx and HTML, best of 3 each…');
  const out = mkdtempSync(join(tmpdir(), 'gpuledger-bench-serve-'));
  const store = await openStore({ path, readOnly: true, command: 'bench' });
  let xlsxMs = Infinity;
  let htmlMs = Infinity;
  let htmlBytes = 0;
  try {
    await withReportSession({ store, config, report: 'nightly', outDir: out }, async (session) => {
      for (let r = 0; r < 3; r++) {
        let t = performance.now();
        await writeWorkbook(session);
        xlsxMs = Math.min(xlsxMs, performance.now() - t);
        t = performance.now();
        htmlBytes = (await writeHtmlReport(session)).bytes;
        htmlMs = Math.min(htmlMs, performance.now() - t);
      }
    });
  } finally {
    await store.close();
    rmSync(out, { recursive: true, force: true });
  }
  const htmlRatio = htmlMs / xlsxMs;
  const htmlOk = htmlRatio <= GOALS.htmlRatio;
  log(`  xlsx ${round(xlsxMs, 0)} ms, HTML ${round(htmlMs, 0)} ms → ${round(htmlRatio)}× ${htmlOk ? 'ok' : 'MISSED'}`);

  const result = {
    benchmark: 'serve',
    command: 'npm run bench:serve',
    judged_by: {
      pages: `each page: p95 of ${RUNS} GETs after a warm-up, every answer computed (goal ≤ ${GOALS.p95Ms} ms for a page not computed ahead), and its median ÷ the floor – the statements it ran, captured at the DuckDB connection, run alone on a read-only database opened once, best of 3 (the first warms it) (goal ≤ ${GOALS.ratio}×; the explorer's ≤ ${GOALS.exploreRatio}×)`,
      after_a_publish: `the default pages (computed ahead when a file is published): the first request of each after the warm-up that follows a publish (goal ≤ ${GOALS.p95Ms} ms); the time from the publish until they are ready is reported beside it`,
      html: `the nightly report written as HTML ÷ as xlsx in one report session, best of 3 each (goal ≤ ${GOALS.htmlRatio}×)`,
    },
    passed: passed && htmlOk,
    pages,
    after_a_publish: published,
    html_vs_xlsx: { value: round(htmlRatio), xlsx_ms: round(xlsxMs, 0), html_ms: round(htmlMs, 0), html_bytes: htmlBytes, passed: htmlOk },
    dataset: 'the bench:views database: large simulator ×3 (seed 42, 3000 pods, 300 endpoints, 600 volumes, 400 days, hourly, now 2026-11-20T00:00:00Z)',
    machine: { cpus: cpus().length, node: process.version, load_average_at_start: loadAtStart, load_average_at_end: loadavg().map((x) => round(x)) },
    measured_at: new Date().toISOString(),
  };
  mkdirSync(join(RESULT, '..'), { recursive: true });
  writeFileSync(RESULT, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`${result.passed ? 'all goals met' : 'some goals MISSED'} → ${RESULT}\n`);
}

await main();
