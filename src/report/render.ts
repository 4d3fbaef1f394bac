// renderReport: definition + period → one .xlsx, written atomically (a temp file in the output folder, renamed
// into place when complete). Sheets are written in the definition's order by the streaming writer, the "About"
// sheet last. The `run` job calls this in-process with its own open store; the set-up it shares with the HTML page
// (clock, output folder, view cache, accounts) is report-session.ts.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { moveIntoPlace, temporaryBeside } from '../outputs/atomic-file.ts';
import { checkFileOutput } from '../outputs/output-guard.ts';
import { displayPath } from '../util/display-path.ts';
import { VERSION } from '../version.ts';
import type { ChartFont, RenderedChart } from './charts/index.ts';
import { createXlsxWriter, writeMetadataSheet, writeSummarySheet, writeTableSheet, type MetadataInput, type SummaryFigure } from './workbook/index.ts';
import type { ReportPeriod } from './period/index.ts';
import { readSummary } from './summary-content.ts';
import { instantText } from '../present/index.ts';
import { workbookFileName } from './file-names.ts';
import { sheetSql, withReportSession, type RenderReportOptions, type ReportSession } from './report-session.ts';

export type { RenderReportOptions } from './report-session.ts';
export { workbookFileName } from './file-names.ts';

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

export async function renderReport(options: RenderReportOptions): Promise<RenderedReport> {
  return withReportSession(options, writeWorkbook);
}

/** The workbook of a report session, written atomically into its output folder. */
export async function writeWorkbook(session: ReportSession): Promise<RenderedReport> {
  const { store, config, def, clock, timeZone, font, generatedAt, accounts, simulatedAccounts, asOfText, log, heading } = session;
  const finalPath = checkFileOutput({ flag: session.outFlag, path: join(session.outDir, workbookFileName(def.name, clock.period)), dbPath: store.path });
  const tmpPath = temporaryBeside(finalPath, store.path);
  try {
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
      await session.prepareSheet(sheet);
      if (sheet.kind === 'summary') {
        const r = await readSummary(store, sheet, { params: clock.params, timeZone, font, where });
        writeSummarySheet(writer, r, heading(sheet.title ?? def.title), timeZone);
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
          ['Definition', displayPath(def.file)],
          ['Period', `${clock.period.title} (${clock.period.start} to ${clock.period.end}, UTC days)`],
          ['Evaluated as of', asOfText],
          ['Generated at', instantText(generatedAt, timeZone)],
          ['Time zone', `${timeZone} (times shown in it; days are UTC calendar days, as the billing API buckets them)`],
          ['gpuledger version', VERSION],
          ['Database', displayPath(store.path)],
          ['Accounts', accounts.map((a) => (a.simulated ? `${a.account} (SIMULATED DATA)` : a.account)).join(', ') || '(none recorded)'],
          ['Chart font', font.textRenders ? font.source : `${font.source} (no text rendered)`],
          ['Amounts', 'USD; each cell holds the exact amount, its format shows the column\'s unit (cents; a cost per unit to 1/100 cent); totals rows equal the SQL totals'],
        ],
        parameters: [
          ['$period_start', clock.period.start],
          ['$period_end', clock.period.end],
          ['$as_of', clock.asOf.toISOString()],
          ['$budget_monthly', config.reports.budget?.monthly ?? 'NULL (no budget configured)'],
          // a report rendered per allocation value says which one (category-reports.ts)
          ...(['category', 'category_value'] as const).flatMap((p) => (typeof clock.params[p] === 'string' ? [[`$${p}`, clock.params[p]] as [string, string]] : [])),
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
  }
}
