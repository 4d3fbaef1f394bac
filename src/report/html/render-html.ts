// A report as one self-contained HTML page: the same definition, the same report session (clock, view cache,
// accounts) and the same queries as the workbook, the summary from the same model (summary-content.ts), every table
// sheet a section, composed from the presentation layer (src/present) – `serve` shows reportPage() too – and a file
// is written atomically, like the workbook. Large tables show their first rows and say where the rest is: the page
// stays small enough to mail (the nightly demo is well under 1 MB).
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { moveIntoPlace, temporaryBeside } from '../../outputs/atomic-file.ts';
import { checkFileOutput } from '../../outputs/output-guard.ts';
import { displayPath } from '../../util/display-path.ts';
import { VERSION } from '../../version.ts';
import { bareSql, queryAll, queryColumns } from '../query.ts';
import { html, instantText, linkedSection, pageDocument, sectionId, section, type Link, type Markup } from '../../present/index.ts';
import { htmlFileName, sectionCsvName, workbookFileName } from '../file-names.ts';
import { sheetSql, type ReportSession } from '../report-session.ts';
import { resultTotals } from '../result-totals.ts';
import { readSummary } from '../summary-content.ts';
import { resolveColumns } from '../table-columns.ts';
import { summarySection, tableSection, type HtmlTable } from './sections.ts';

/** Rows a table section shows; the rest is in the workbook and behind `gpuledger query`. */
export const HTML_ROW_LIMIT = 500;

export interface PageOptions {
  /** A served page: its path (the site's navigation marks it). A file: undefined. */
  servedAt?: string;
  rowLimit?: number;
  /** Header controls (serve: the period picker). */
  controls?: Markup;
  /** Where the whole of a cut table can be had (file: the workbook; serve: the CSV route). */
  fullTable?: (sheet: string) => string;
  /** A link to every row of a table section as CSV (serve). */
  csvHref?: (sheet: string) => string;
  /**
   * Part of the report (serve, a period not computed ahead): the sheets computed on this page; every other sheet is a
   * section linking to `sectionHref` of it, or left out when that gives undefined. Default: every sheet.
   */
  computes?: (sheet: string) => boolean;
  sectionHref?: (sheet: string) => string | undefined;
  /** The page of a section not computed here, for a column linking to it (serve). */
  pageOf?: (sheet: string) => string;
  /** Above the sections (a section's own page: the breadcrumbs back to the report). */
  before?: Markup;
  /** The About section (default: when the definition asks for it). */
  about?: boolean;
}

/** The report of a session as one HTML document. */
export async function reportPage(session: ReportSession, options: PageOptions): Promise<{ html: string; sections: { name: string; rows: number; shown: number }[] }> {
  const { store, def, clock, timeZone, font, heading } = session;
  const limit = options.rowLimit ?? HTML_ROW_LIMIT;
  const parts: Markup[] = [];
  const sections: { name: string; rows: number; shown: number }[] = [];
  const queries: { sheet: string; sql: string }[] = [];
  for (const [i, sheet] of def.sheets.entries()) {
    const where = `report definition ${def.file} sheets.${i + 1}`;
    const started = Date.now();
    const took = () => session.log.debug(`section ${sheet.name}: ${sections.at(-1)!.shown} of ${sections.at(-1)!.rows} rows in ${Date.now() - started} ms`);
    if (options.computes && !options.computes(sheet.name)) {
      const href = options.sectionHref?.(sheet.name);
      if (href === undefined) continue;
      const title = sheet.title ?? sheet.name;
      parts.push(linkedSection({ id: sectionId(sheet.name), title, lines: sheet.kind === 'table' && sheet.description ? [sheet.description] : [], link: { label: `Show ${title}`, href } }));
      if (sheet.kind === 'table') queries.push({ sheet: sheet.name, sql: sheetSql(sheet) });
      continue;
    }
    await session.prepareSheet(sheet);
    if (sheet.kind === 'summary') {
      const content = await readSummary(store, sheet, { params: clock.params, timeZone, font, where });
      const h = heading(sheet.title ?? def.title);
      parts.push(summarySection(content, { title: h.title, lines: h.lines.slice(0, -1), timeZone }));
      sections.push({ name: sheet.name, rows: content.figures.length, shown: content.figures.length });
      queries.push(...content.queries.map((q) => ({ sheet: `${sheet.name}: ${q.what}`, sql: q.sql })));
      took();
      continue;
    }
    const sql = sheetSql(sheet);
    queries.push({ sheet: sheet.name, sql });
    const resultColumns = await queryColumns(store, sql, clock.params, where);
    const columns = resolveColumns({ columns: sheet.columns, where }, resultColumns);
    const stats = await resultTotals(store, { sql, where }, columns, resultColumns.length, clock.params);
    // the first rows only: with the limit in the SQL, DuckDB keeps the top rows of the order instead of sorting all
    // of them (a month of Detail on a large account: ~1 s less)
    const first = await queryAll(store, `select * from (\n${bareSql(sql)}\n) as q limit ${limit}`, clock.params, where);
    const rows = first.rows.map((r) => columns.map((c) => r[c.index] ?? null));
    const linksTo = new Map((sheet.columns ?? []).filter((c) => c.linksTo).map((c) => [c.field, c.linksTo!]));
    // a linked section computed on a page of its own: the cell goes to that page (its filter stays on this one)
    const elsewhere = (target: string | undefined) => (target !== undefined && options.computes && !options.computes(target) ? options.pageOf?.(target) : undefined);
    const table: HtmlTable = {
      columns: columns.map((c) => {
        const target = linksTo.get(c.field);
        const page = elsewhere(target);
        return { field: c.field, header: c.header, format: c.format, upIsBad: c.upIsBad, total: c.total, dataBar: c.dataBar, ...(page === undefined ? { linksTo: target } : { link: () => ({ href: page }) }) };
      }),
      rows,
      totalRows: stats.rows,
      totals: stats.totals,
      emptyText: sheet.emptyText,
    };
    const csvName = sectionCsvName(def.name, clock.period.label, sectionId(sheet.name).slice(2));
    parts.push(tableSection({ name: sheet.name, title: sheet.title ?? sheet.name, description: sheet.description, table, csvName, timeZone, rest: options.fullTable?.(sheet.name), csvHref: options.csvHref?.(sheet.name) }));
    sections.push({ name: sheet.name, rows: stats.rows, shown: rows.length });
    took();
  }
  const about = def.metadataSheet && options.about !== false;
  if (about) parts.push(aboutSection(session, queries));
  const h = heading(def.title);
  const shown = def.sheets.filter((s) => !options.computes || options.computes(s.name) || options.sectionHref?.(s.name) !== undefined);
  const contents: Link[] = [...shown.map((s) => ({ label: s.name, href: `#${sectionId(s.name)}` })), ...(about ? [{ label: 'About', href: '#s-about' }] : [])];
  const page = pageDocument({ title: def.title, lines: h.lines, simulatedAccounts: session.simulatedAccounts, contents, servedAt: options.servedAt, controls: options.controls, body: html`${options.before}${parts}` });
  return { html: page, sections };
}

function aboutSection(s: ReportSession, queries: { sheet: string; sql: string }[]): Markup {
  const facts: Array<[string, string]> = [
    ['Report', `${s.def.name} – ${s.def.title}`],
    ['Definition', displayPath(s.def.file)],
    ['Period', `${s.clock.period.title} (${s.clock.period.start} to ${s.clock.period.end}, UTC days)`],
    ['Evaluated as of', s.asOfText],
    ['Generated at', instantText(s.generatedAt, s.timeZone)],
    ['gpuledger version', VERSION],
    ['Accounts', s.accounts.map((a) => (a.simulated ? `${a.account} (SIMULATED DATA)` : a.account)).join(', ') || '(none recorded)'],
    ['Amounts', 'USD; each cell keeps the exact amount (data-v, and in the CSV); totals are of every row, exact'],
  ];
  return section({
    id: 's-about',
    title: 'About',
    body: html`<table class="facts"><tbody>${facts.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table><details><summary>The queries behind each section</summary>${queries.map((q) => html`<h3>${q.sheet}</h3><pre>${q.sql.trim()}</pre>`)}</details>`,
  });
}

export interface RenderedHtml {
  path: string;
  bytes: number;
  sections: { name: string; rows: number; shown: number }[];
}

/** The HTML report of a session, written atomically beside the workbook. */
export async function writeHtmlReport(session: ReportSession, options: { rowLimit?: number } = {}): Promise<RenderedHtml> {
  const { store, def, clock, log } = session;
  const finalPath = checkFileOutput({ flag: session.outFlag, path: join(session.outDir, htmlFileName(def.name, clock.period.label)), dbPath: store.path });
  const workbook = workbookFileName(def.name, clock.period);
  log.info(`rendering ${def.name} as HTML for ${clock.period.title} to ${finalPath}`);
  const { html, sections } = await reportPage(session, {
    rowLimit: options.rowLimit,
    fullTable: (sheet) => `every row is on the '${sheet}' sheet of ${workbook} (gpuledger report --format xlsx)`,
  });
  const tmpPath = temporaryBeside(finalPath, store.path);
  try {
    writeFileSync(tmpPath, html);
    moveIntoPlace(tmpPath, finalPath);
  } catch (e) {
    rmSync(tmpPath, { force: true });
    throw e;
  }
  const bytes = statSync(finalPath).size;
  log.info(`wrote ${finalPath} (${(bytes / 1e6).toFixed(2)} MB)`);
  return { path: finalPath, bytes, sections };
}
