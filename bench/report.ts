// npm run bench:report – the nightly workbook with a 1,000,000-row Detail sheet, against a bare exceljs streaming
// write of the same rows. Judged by: report wall time ÷ shared-style bare write time (goal ≤ 1.0, issue 28 §4) and the report process's peak
// RSS (goal ≤ 400 MB). Each side runs in its own child process, so each RSS is its own. Writes
// bench/results/report.json.
//
// The database: raw billing rows inserted with SQL (range()): 40,000 pods × 25 days of October 2026, one GPU cost
// component each, with a current inventory version per pod (names, GPU type, data center) – so cost_daily has
// exactly 1,000,000 rows for the month and every report view computes over them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { parseConfig } from '../src/config/load.ts';
import { loadReportDefinition, renderReport } from '../src/report/index.ts';
import { setReportClock } from '../src/report/period/index.ts';
import { streamRows } from '../src/report/query.ts';
import { openStore } from '../src/store/database.ts';
import { createLogger } from '../src/util/log.ts';
import { insertRawBilling } from '../test/helpers/raw-billing.ts';

const ROWS = 1_000_000;
const PODS = 40_000;
const DAYS = 25;
const PERIOD = '2026-10';
const RESULT = fileURLToPath(new URL('./results/report.json', import.meta.url));

// the nightly Detail sheet over a plain table copy of cost_daily (same columns, order and formats)
const DETAIL_TABLE_REPORT = `
title: Detail from a table
defaultPeriod: month_to_date
metadataSheet: false
sheets:
  - name: Detail
    large: true
    sql: |
      select day, account, family, component, resource_id, resource_name, gpu_type_name, data_center_id,
             template_name, endpoint_name, attribution, amount
      from bench_cost_daily
      where day between $period_start and $period_end
      order by day, account, family, resource_id, component
`;

interface ChildResult {
  wallMs: number;
  maxRssMb: number;
  bytes: number;
  extra?: Record<string, unknown>;
}

function runChild(role: string, db: string, out: string, directory?: string): ChildResult & { processWallMs: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', role, db, out, ...(directory ? [directory] : [])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${role} child failed with ${r.status}`);
  const line = r.stdout.trim().split('\n').at(-1)!;
  return { ...(JSON.parse(line) as ChildResult), processWallMs: Date.now() - started };
}

async function buildDatabase(db: string): Promise<void> {
  const store = await openStore({ path: db, command: 'bench' });
  try {
    await insertRawBilling(store, {
      account: 'bench',
      from: '2026-10-01',
      to: `2026-10-${String(DAYS).padStart(2, '0')}`,
      pods: PODS,
      podComponents: 'gpu',
      podInventory: true,
      horizon: '2026-10-26T00:00:00Z',
    });
    const n = await store.one<{ n: string }>(`select count(*)::varchar as n from cost_daily where day between '2026-10-01' and '2026-10-31'`);
    if (Number(n?.n) !== ROWS) throw new Error(`expected ${ROWS} cost_daily rows, built ${n?.n}`);
    // the same rows as a plain table, for the run that measures the workbook side alone (no view evaluation)
    await store.run('create table bench_cost_daily as select * from cost_daily');
  } finally {
    await store.close();
  }
}

const MB = 1024 * 1024;

/** The process's memory when its resident size was largest, sampled every 50 ms: who held it (V8's heap, Buffers, the rest). */
function peakSampler(): { stop(): Record<string, number> } {
  let peak = { rssMb: 0, heapUsedMb: 0, heapTotalMb: 0, externalMb: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    if (m.rss / MB > peak.rssMb) {
      peak = { rssMb: Math.round(m.rss / MB), heapUsedMb: Math.round(m.heapUsed / MB), heapTotalMb: Math.round(m.heapTotal / MB), externalMb: Math.round(m.external / MB) };
    }
  };
  const timer = setInterval(sample, 50);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** The report, as `gpuledger report --report nightly --period 2026-10` runs it (or another report of `directory`). */
async function childReport(db: string, out: string, report = 'nightly', directory?: string): Promise<ChildResult> {
  const afterImportsMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const started = performance.now();
  const store = await openStore({ path: db, command: 'report' });
  const openedMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const sampler = peakSampler();
  try {
    const logger = createLogger({ level: 'debug' });
    const config = parseConfig(directory ? { reports: { directory } } : {}, '(bench)');
    const r = await renderReport({ store, config, report, period: PERIOD, outDir: out, logger });
    return {
      wallMs: Math.round(performance.now() - started),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      bytes: r.bytes,
      extra: { sheets: r.summary.sheets.map((s) => ({ name: s.name, rows: s.rows })), afterImportsMb, openedMb, atPeak: sampler.stop() },
    };
  } finally {
    sampler.stop();
    await store.close();
  }
}

/**
 * The floor under the report's figure: a bare node opening the database with @duckdb/node-api alone (no tsx, no
 * module of ours), and its peak resident size.
 */
function duckdbFloor(db: string): number {
  const script = `import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create(${JSON.stringify(db)}); const c = await i.connect();
await c.run('select 1'); c.closeSync(); i.closeSync();
process.stdout.write(String(Math.round(process.resourceUsage().maxRSS / 1024)));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) });
  if (r.status !== 0) throw new Error(`duckdb floor failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}

/**
 * The baseline: exceljs's documented streaming write of the same Detail rows (same columns, formats, header),
 * nothing else. The rows are loaded from DuckDB into memory first, untimed, so only the write is measured.
 */
async function childBaseline(db: string, out: string, sharedStyles: boolean): Promise<ChildResult> {
  const store = await openStore({ path: db, readOnly: true });
  const def = loadReportDefinition('nightly', undefined);
  const detail = def.sheets.find((s) => s.name === 'Detail');
  if (!detail || detail.kind !== 'table' || !detail.sql || !detail.columns) throw new Error('nightly has no Detail sql');
  const clock = await setReportClock(store, { periodText: PERIOD, defaultPeriod: def.defaultPeriod, budgetMonthly: undefined });
  const rows: unknown[][] = [];
  for await (const chunk of streamRows(store, detail.sql, clock.params, 'baseline')) {
    for (const r of chunk) rows.push(r.map((v, i) => (i === 0 ? new Date(`${v as string}T00:00:00Z`) : i === 11 ? Number(v) : v)));
  }
  await store.close();
  if (rows.length !== ROWS) throw new Error(`baseline loaded ${rows.length} rows`);

  const path = join(out, `baseline-${sharedStyles ? 'shared' : 'column'}.xlsx`);
  const started = performance.now();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true });
  const ws = wb.addWorksheet('Detail', { views: [{ state: 'frozen', ySplit: 1 }] });
  const styles = detail.columns.map((_, i) => (i === 0 ? { numFmt: 'yyyy-mm-dd' } : i === 11 ? { numFmt: '"$"#,##0.00;-"$"#,##0.00' } : {}));
  // documented idiom: a style per column (exceljs copies it into each cell); sharedStyles: one style object per
  // column assigned to every cell, the way the report writes (exceljs then resolves each style once)
  ws.columns = detail.columns.map((c, i) => ({ header: c.header ?? c.field, key: c.field, width: 14, ...(sharedStyles ? {} : { style: styles[i] }) }));
  for (let i = 0; i < rows.length; i++) {
    const row = ws.addRow(rows[i]!);
    if (sharedStyles) for (let c = 0; c < styles.length; c++) row.getCell(c + 1).style = styles[c]!;
    row.commit();
    if (i % 2048 === 2047) await new Promise((r) => setImmediate(r));
  }
  ws.commit();
  await wb.commit();
  const wallMs = Math.round(performance.now() - started);
  const { size } = statSync(path);
  return { wallMs, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), bytes: size };
}

/** A figure against its goal (lower is better). */
function goal(measured: number, limit: number): { measured: number; goal: number; met: boolean } {
  return { measured: Number(measured.toFixed(3)), goal: limit, met: measured <= limit };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const [, role, db, out, directory] = args as [string, string, string, string, string | undefined];
    const result =
      role === 'report'
        ? await childReport(db, out)
        : role === 'detail-table'
          ? await childReport(db, out, 'detail-table', directory)
          : await childBaseline(db, out, role === 'baseline-shared');
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-report-'));
  const db = join(dir, 'bench.duckdb');
  const out = join(dir, 'out');
  mkdirSync(out);
  try {
    const loadAtStart = loadavg().map((l) => Number(l.toFixed(2)));
    process.stderr.write(`building ${ROWS} cost rows in ${db} …\n`);
    const buildStarted = Date.now();
    await buildDatabase(db);
    const buildMs = Date.now() - buildStarted;
    const floorMb = duckdbFloor(db);
    process.stderr.write(`floor: node + @duckdb/node-api opening the database, peak RSS ${floorMb} MB\nreport (child process) …\n`);
    const report = runChild('report', db, out);
    process.stderr.write(`report: ${report.wallMs} ms, peak RSS ${report.maxRssMb} MB\n`);
    const defs = join(dir, 'definitions');
    mkdirSync(defs);
    writeFileSync(join(defs, 'detail-table.yaml'), DETAIL_TABLE_REPORT);
    const detailTable = runChild('detail-table', db, out, defs);
    process.stderr.write(`detail from a table: ${detailTable.wallMs} ms, peak RSS ${detailTable.maxRssMb} MB\nbaselines (child processes) …\n`);
    const baseline = runChild('baseline-column', db, out);
    process.stderr.write(`baseline, column styles: ${baseline.wallMs} ms, peak RSS ${baseline.maxRssMb} MB\n`);
    const shared = runChild('baseline-shared', db, out);
    process.stderr.write(`baseline, shared cell styles: ${shared.wallMs} ms, peak RSS ${shared.maxRssMb} MB\n`);
    const result = {
      command: 'npm run bench:report',
      measuredAt: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryMb: Math.round(totalmem() / 1e6), node: process.version },
      // 1, 5 and 15 minute load averages: the machine is shared, so a figure is read beside them
      loadAverage: { atStart: loadAtStart, atEnd: loadavg().map((l) => Number(l.toFixed(2))) },
      detailRows: ROWS,
      report: {
        what: `gpuledger report --report nightly --period ${PERIOD}: every sheet (summary with two PNG charts, 7 table sheets, About) and the ${ROWS}-row Detail from cost_daily, streamed from DuckDB (open store + render, in its own process); the Detail's data rows are written as sheet XML by src/report/workbook/row-xml.ts, not through exceljs rows – the same XML text exceljs writes for the same values and styles (test/report/workbook/xlsx-writer.test.ts compares them byte for byte)`,
        wallMs: report.wallMs,
        processWallMs: report.processWallMs,
        peakRssMb: report.maxRssMb,
        // the same process before any work: after the modules loaded (under tsx, as every child here runs), and
        // with the database opened; atPeak: process.memoryUsage() when the resident size was largest
        afterImportsRssMb: report.extra?.afterImportsMb,
        openedRssMb: report.extra?.openedMb,
        atPeak: report.extra?.atPeak,
        workbookBytes: report.bytes,
        sheets: report.extra?.sheets,
      },
      detailFromTable: {
        what: `the same ${ROWS}-row Detail sheet alone, read from a plain table copy of cost_daily: the workbook side's own cost without the views' evaluation`,
        wallMs: detailTable.wallMs,
        peakRssMb: detailTable.maxRssMb,
        atPeak: detailTable.extra?.atPeak,
        workbookBytes: detailTable.bytes,
      },
      baseline: {
        what: `bare exceljs stream.xlsx.WorkbookWriter, documented idiom: the same ${ROWS} Detail rows (preloaded, untimed), same columns, number formats as column styles, addRow().commit()`,
        wallMs: baseline.wallMs,
        peakRssMb: baseline.maxRssMb,
        workbookBytes: baseline.bytes,
      },
      baselineSharedStyles: {
        what: 'as baseline, but every cell gets its column\'s one shared style object (exceljs resolves a style once per object): the fastest honest way to write these cells with exceljs; the report writes the same cells\' XML itself (see report.what)',
        wallMs: shared.wallMs,
        peakRssMb: shared.maxRssMb,
        workbookBytes: shared.bytes,
      },
      floor: {
        what: 'a bare node (no tsx, none of our modules) opening the database with @duckdb/node-api: the least any report process holds',
        peakRssMb: floorMb,
      },
      ratios: {
        wallTimeVsBaseline: Number((report.wallMs / baseline.wallMs).toFixed(3)),
        wallTimeVsSharedStyleBaseline: Number((report.wallMs / shared.wallMs).toFixed(3)),
        wallTimeGoal: 1.0,
        peakRssMb: report.maxRssMb,
        detailFromTablePeakRssMb: detailTable.maxRssMb,
        peakRssGoalMb: 400,
      },
      goals: {
        wallTimeVsSharedStyleBaseline: goal(report.wallMs / shared.wallMs, 1.0),
        peakRssMb: goal(report.maxRssMb, 400),
      },
      databaseBuildMs: buildMs,
    };
    mkdirSync(join(RESULT, '..'), { recursive: true });
    writeFileSync(RESULT, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(result.goals)}\nwrote ${RESULT}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
