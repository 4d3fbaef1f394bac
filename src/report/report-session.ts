// What every rendering of a report shares, set up once: the definition, the report clock pinned to the period, the
// output folder (checked against the store's files), the shared views cached as the sheets that read them render,
// the accounts and their SIMULATED DATA labels – and undone afterwards whatever happened. The workbook (render.ts)
// and the HTML page (html/render-html.ts) are both written inside one session, from the same queries.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/schema.ts';
import { checkFolderOutput } from '../outputs/output-guard.ts';
import type { Store } from '../store/database.ts';
import { silentLogger, type Logger } from '../util/log.ts';
import { findChartFont, type ChartFont } from './charts/index.ts';
import { instantText } from '../present/index.ts';
import { loadReportDefinition, type ReportDefinition, type TableSheetDefinition } from './definition/index.ts';
import { limitReportMemory } from './memory-budget.ts';
import { resetReportVariables, setReportClock } from './period/index.ts';
import { sharedViewCache } from './view-cache.ts';
import type { Heading } from './heading.ts';
import type { DuckDBValue } from '../util/duckdb-api.ts';

export interface RenderReportOptions {
  store: Store;
  config: Config;
  /** Report name (a file in reports/ or config reports.directory); default "nightly". */
  report?: string;
  /** `--period` text: 2026-10 or 2026-10-01..2026-10-15; default: the report's own. */
  period?: string;
  /** What the period is called where it was given, in its errors: '--period' (default), serve's 'period'. */
  periodName?: string;
  /** Output folder; default config outDir. Relative paths resolve against cwd. */
  outDir?: string;
  cwd?: string;
  /** "Generated at" (tests pass a fixed time). */
  now?: Date;
  logger?: Logger;
  /** false: nothing is written (serve) – the output folder is neither checked nor made. */
  writes?: boolean;
  /**
   * The sheets this session renders, by name (default every one): a view is copied for the session only when several
   * of their queries read it – one page of one section reads most views once, straight from the view.
   */
  sheets?: (def: ReportDefinition) => readonly string[];
  /**
   * One rendering of a report made several times (showback: once per team): its name and title carry the suffix, so
   * its files are its own, and its extra SQL parameters ($category, $category_value) are bound with the period's.
   */
  variant?: ReportVariant;
}

export interface ReportVariant {
  /** Appended to the report's name with a dash: file names and the delivery record. */
  suffix?: string;
  /** Appended to the report's title with a dash. */
  title?: string;
  params: Record<string, DuckDBValue>;
}

export interface ReportSession {
  store: Store;
  config: Config;
  def: ReportDefinition;
  clock: Awaited<ReturnType<typeof setReportClock>>;
  timeZone: string;
  font: ChartFont;
  generatedAt: Date;
  outDir: string;
  /** How the output folder was given, for messages: --out-dir or config outDir. */
  outFlag: string;
  accounts: { account: string; simulated: boolean }[];
  simulatedAccounts: string[];
  asOfText: string;
  log: Logger;
  heading(title: string, description?: string): Heading;
  /** Before a sheet's queries run: copies the shared report views it reads that no earlier sheet has (view-cache.ts). */
  prepareSheet(sheet: ReportDefinition['sheets'][number]): Promise<void>;
}

export function sheetSql(sheet: TableSheetDefinition): string {
  if (sheet.sql !== undefined) return sheet.sql;
  return [`select * from ${sheet.view}`, sheet.where ? `where ${sheet.where}` : '', sheet.orderBy ? `order by ${sheet.orderBy}` : '']
    .filter(Boolean)
    .join('\n');
}

/** The accounts a report shows, each marked simulated when the database or the config says so. */
export async function readAccounts(store: Store, config: Config): Promise<ReportSession['accounts']> {
  const rows = await store.all<{ account: string; simulated: boolean }>('select account, simulated from _meta_accounts order by account');
  const byName = new Map(rows.map((r) => [r.account, r.simulated]));
  // the demo marks its account simulated in the config too; either source is enough to label it
  for (const a of config.accounts) if (a.simulated) byName.set(a.name, true);
  return [...byName].map(([account, simulated]) => ({ account, simulated })).sort((a, b) => a.account.localeCompare(b.account));
}

export async function withReportSession<T>(options: RenderReportOptions, work: (session: ReportSession) => Promise<T>): Promise<T> {
  const { store, config } = options;
  const log = (options.logger ?? silentLogger).child('report');
  const cwd = options.cwd ?? process.cwd();
  const loaded = loadReportDefinition(options.report ?? 'nightly', resolve(cwd, config.reports.directory));
  const variant = options.variant;
  const def: ReportDefinition = variant === undefined ? loaded : {
    ...loaded,
    name: variant.suffix === undefined ? loaded.name : `${loaded.name}-${variant.suffix}`,
    title: variant.title === undefined ? loaded.title : `${loaded.title} – ${variant.title}`,
  };
  const timeZone = config.timeZone;
  const font = findChartFont(config.reports.chartFont === undefined ? undefined : resolve(cwd, config.reports.chartFont));
  if (!font.textRenders) log.warn(`no font found for chart text (tried ${font.source}); charts have no labels – install fonts-dejavu-core or set reports.chartFont`);

  const periodClock = await setReportClock(store, { periodText: options.period, periodName: options.periodName, defaultPeriod: def.defaultPeriod, budgetMonthly: config.reports.budget?.monthly });
  const clock = variant === undefined ? periodClock : { ...periodClock, params: { ...periodClock.params, ...variant.params } };
  // reports may go beside the database, never onto one of its files (issue 18 §1); store.path is the database
  const outFlag = options.outDir !== undefined ? '--out-dir' : 'config outDir';
  const asked = resolve(cwd, options.outDir ?? config.outDir);
  // serve writes nothing: its folder is neither checked nor made
  const outDir = options.writes === false ? asked : checkFolderOutput({ flag: outFlag, path: asked, dbPath: store.path }, { mayHoldDatabase: true });
  if (options.writes !== false) mkdirSync(outDir, { recursive: true });
  const unlimitMemory = await limitReportMemory(store);
  let dropCache = async () => {};
  try {
    const rendered = options.sheets?.(def);
    const cache = await sharedViewCache(store, rendered === undefined ? def : { ...def, sheets: def.sheets.filter((s) => rendered.includes(s.name)) }, log);
    dropCache = () => cache.drop();
    const accounts = await readAccounts(store, config);
    const simulatedAccounts = accounts.filter((a) => a.simulated).map((a) => a.account);
    const asOfText = instantText(clock.asOf, timeZone);
    const periodLine = `${clock.period.title} · data as of ${asOfText} · amounts in USD`;
    const heading = (title: string, description?: string): Heading => ({ title, lines: description ? [description, periodLine] : [periodLine], simulatedAccounts });
    return await work({ store, config, def, clock, timeZone, font, generatedAt: options.now ?? new Date(), outDir, outFlag, accounts, simulatedAccounts, asOfText, log, heading, prepareSheet: (sheet) => cache.prepare(sheet) });
  } finally {
    await dropCache();
    await unlimitMemory();
    await resetReportVariables(store);
  }
}
