// renderReport: definition + period → one .xlsx, written atomically (a temp file in the output folder, renamed
// into place when complete). Sheets are written in the definition's order by the streaming writer, the "About"
// sheet last. The `run` job calls this in-process with its own open store.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/schema.ts';
import { moveIntoPlace, temporaryBeside } from '../outputs/atomic-file.ts';
import { checkFileOutput, checkFolderOutput } from '../outputs/output-guard.ts';
import type { Store } from '../store/database.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { VERSION } from '../version.ts';
import { findChartFont, type ChartFont, type RenderedChart } from './charts/index.ts';
import { loadReportDefinition, type ReportDefinition, type TableSheetDefinition } from './definition/index.ts';
import { createXlsxWriter, writeMetadataSheet, writeSummarySheet, writeTableSheet, type Heading, type MetadataInput, type SummaryFigure } from './workbook/index.ts';
import { resetReportVariables, setReportClock, type ReportPeriod } from './period/index.ts';
import { limitReportMemory } from './memory-budget.ts';
import { cacheSharedViews } from './view-cache.ts';
import { instantText } from './cells/index.ts';

export interface RenderReportOptions {
  store: Store;
  config: Config;
  /** Report name (a file in reports/ or config reports.directory); default "nightly". */
  report?: string;
  /** `--period` text: 2026-10 or 2026-10-01..2026-10-15; default: the report's own. */
  period?: string;
  /** Output folder; default config outDir. Relative paths resolve against cwd. */
  outDir?: string;
  cwd?: string;
  /** "Generated at" (tests pass a fixed time). */
  now?: Date;
  logger?: Logger;
}

export interface ReportSummary {
  report: string;
  title: string;
  definitionFile: string;
  period: ReportPeriod;
  /** The clock the report views were evaluated at (ISO, UTC). */
  asOf: string;
  generatedAt: string;
  timeZone: string;
  figures: SummaryFigure[];
  charts: RenderedChart[];
  sheets: { name: string; rows: number; totals: Record<string, string | number | null> }[];
  accounts: { account: string; simulated: boolean }[];
  simulatedAccounts: string[];
  chartFont: ChartFont;
}

export interface RenderedReport {
  path: string;
  bytes: number;
  summary: ReportSummary;
}

export function workbookFileName(report: string, period: ReportPeriod): string {
  return `gpuledger-${report}-${period.label}.xlsx`;
}

function sheetSql(sheet: TableSheetDefinition): string {
  if (sheet.sql !== undefined) return sheet.sql;
  return [`select * from ${sheet.view}`, sheet.where ? `where ${sheet.where}` : '', sheet.orderBy ? `order by ${sheet.orderBy}` : '']
    .filter(Boolean)
    .join('\n');
}

async function readAccounts(store: Store, config: Config): Promise<ReportSummary['accounts']> {
  const rows = await store.all<{ account: string; simulated: boolean }>('select account, simulated from _meta_accounts order by account');
  const byName = new Map(rows.map((r) => [r.account, r.simulated]));
  // the demo marks its account simulated in the config too; either source is enough to label it
  for (const a of config.accounts) if (a.simulated) byName.set(a.name, true);
  return [...byName].map(([account, simulated]) => ({ account, simulated })).sort((a, b) => a.account.localeCompare(b.account));
}

export async function renderReport(options: RenderReportOptions): Promise<RenderedReport> {
  const { store, config } = options;
  const log = (options.logger ?? silentLogger).child('report');
  const cwd = options.cwd ?? process.cwd();
  const def: ReportDefinition = loadReportDefinition(options.report ?? 'nightly', resolve(cwd, config.reports.directory));
  const timeZone = config.timeZone;
  const generatedAt = options.now ?? new Date();
  const font = findChartFont(config.reports.chartFont === undefined ? undefined : resolve(cwd, config.reports.chartFont));
  if (!font.textRenders) log.warn(`no font found for chart text (tried ${font.source}); charts have no labels – install fonts-dejavu-core or set reports.chartFont`);

  const clock = await setReportClock(store, {
    periodText: options.period,
    defaultPeriod: def.defaultPeriod,
    budgetMonthly: config.reports.budget?.monthly,
  });
  // the workbook may go beside the database, never onto one of its files (issue 18 §1); store.path is the database
  const flag = options.outDir !== undefined ? '--out-dir' : 'config outDir';
  const outDir = checkFolderOutput({ flag, path: resolve(cwd, options.outDir ?? config.outDir), dbPath: store.path }, { mayHoldDatabase: true });
  mkdirSync(outDir, { recursive: true });
  const finalPath = checkFileOutput({ flag, path: join(outDir, workbookFileName(def.name, clock.period)), dbPath: store.path });
  const tmpPath = temporaryBeside(finalPath, store.path);
  const unlimitMemory = await limitReportMemory(store);
  let dropCache = async () => {};
  try {
    dropCache = await cacheSharedViews(store, def);
    const accounts = await readAccounts(store, config);
    const simulatedAccounts = accounts.filter((a) => a.simulated).map((a) => a.account);
    const asOfText = instantText(clock.asOf, timeZone);
    const periodLine = `${clock.period.title} · data as of ${asOfText} · amounts in USD`;
    const heading = (title: string, description?: string): Heading => ({
      title,
      lines: description ? [description, periodLine] : [periodLine],
      simulatedAccounts,
    });
    log.info(`rendering ${def.name} for ${clock.period.title} to ${finalPath}`);

    const writer = createXlsxWriter(tmpPath, {
      creator: `gpuledger ${VERSION}`,
      title: def.title,
      footer: { left: def.title, center: clock.period.title },
    });
    const queries: MetadataInput['queries'] = [];
    const sheets: ReportSummary['sheets'] = [];
    let figures: SummaryFigure[] = [];
    let charts: RenderedChart[] = [];
    for (const [i, sheet] of def.sheets.entries()) {
      const where = `report definition ${def.file} sheets.${i + 1}`;
      const started = Date.now();
      if (sheet.kind === 'summary') {
        const r = await writeSummarySheet(writer, store, sheet, heading(sheet.title ?? def.title), { params: clock.params, timeZone, font, where });
        figures = [...figures, ...r.figures];
        charts = [...charts, ...r.charts];
        queries.push(...r.queries.map((q) => ({ sheet: sheet.name, what: q.what, sql: q.sql })));
        sheets.push({ name: sheet.name, rows: r.figures.length, totals: {} });
      } else {
        const sql = sheetSql(sheet);
        const r = await writeTableSheet(
          writer,
          store,
          { name: sheet.name, heading: heading(sheet.title ?? sheet.name, sheet.description), sql, columns: sheet.columns, freezeColumns: sheet.freezeColumns, emptyText: sheet.emptyText, large: sheet.large, where },
          clock.params,
          timeZone,
        );
        queries.push({ sheet: sheet.name, what: 'rows', sql });
        sheets.push({ name: sheet.name, rows: r.rows, totals: r.totals });
      }
      log.debug(`sheet ${sheet.name}: ${sheets.at(-1)!.rows} rows in ${Date.now() - started} ms`);
    }
    if (def.metadataSheet) {
      sheets.push({ name: 'About', rows: queries.length, totals: {} });
      writeMetadataSheet(writer, {
        simulatedAccounts,
        facts: [
          ['Report', `${def.name} – ${def.title}`],
          ['Definition', def.file],
          ['Period', `${clock.period.title} (${clock.period.start} to ${clock.period.end}, UTC days)`],
          ['Evaluated as of', asOfText],
          ['Generated at', instantText(generatedAt, timeZone)],
          ['Time zone', `${timeZone} (times shown in it; days are UTC calendar days, as the billing API buckets them)`],
          ['gpuledger version', VERSION],
          ['Database', store.path],
          ['Accounts', accounts.map((a) => (a.simulated ? `${a.account} (SIMULATED DATA)` : a.account)).join(', ') || '(none recorded)'],
          ['Chart font', font.textRenders ? font.source : `${font.source} (no text rendered)`],
          ['Amounts', 'USD; each cell holds the exact amount, formats show cents; totals rows equal the SQL totals'],
        ],
        parameters: [
          ['$period_start', clock.period.start],
          ['$period_end', clock.period.end],
          ['$as_of', clock.asOf.toISOString()],
          ['$budget_monthly', config.reports.budget?.monthly ?? 'NULL (no budget configured)'],
        ],
        queries,
      });
    }
    await writer.commit();
    moveIntoPlace(tmpPath, finalPath);
    const bytes = statSync(finalPath).size;
    log.info(`wrote ${finalPath} (${(bytes / 1e6).toFixed(1)} MB)`);
    return {
      path: finalPath,
      bytes,
      summary: {
        report: def.name,
        title: def.title,
        definitionFile: def.file,
        period: clock.period,
        asOf: clock.asOf.toISOString(),
        generatedAt: generatedAt.toISOString(),
        timeZone,
        figures,
        charts,
        sheets,
        accounts,
        simulatedAccounts,
        chartFont: font,
      },
    };
  } catch (e) {
    rmSync(tmpPath, { force: true });
    throw e;
  } finally {
    await dropCache();
    await unlimitMemory();
    await resetReportVariables(store);
  }
}
