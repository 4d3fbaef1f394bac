// `gpuledger report --view <name>`: a saved view of the config (config/views.ts) answered by the explorer's own query
// (explore/saved-view.ts, so the figures equal /explore/<name>'s to the cent), written as a one-sheet workbook and a
// self-contained HTML page side by side in the output folder, and shaped as a rendered report so the report's
// delivery (delivery/) emails it to reports.delivery.<name>.recipients like any report.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../../config/schema.ts';
import { answerChartSvg } from '../../explore/answer-chart.ts';
import { findView, savedViewAnswer } from '../../explore/saved-view.ts';
import { rangeLine, valueText } from '../../explore/view-text.ts';
import { writeFileAtomic } from '../../outputs/atomic-file.ts';
import { checkFileOutput, checkFolderOutput } from '../../outputs/output-guard.ts';
import { instantText } from '../../present/index.ts';
import type { Store } from '../../store/database.ts';
import { silentLogger, type Logger } from '../../util/log.ts';
import { findChartFont, renderPng } from '../charts/index.ts';
import { viewFileName } from '../file-names.ts';
import type { Heading } from '../heading.ts';
import type { RenderedReport } from '../render.ts';
import { readAccounts } from '../report-session.ts';
import { viewPageHtml } from './view-page.ts';
import { answerUnit, writeViewWorkbook } from './view-workbook.ts';

export interface RenderViewOptions {
  store: Store;
  config: Config;
  view: string;
  /** Output folder; default config outDir. Relative paths resolve against cwd. */
  outDir?: string;
  cwd?: string;
  now?: Date;
  logger?: Logger;
}

export interface RenderedView {
  /** The workbook, as a rendered report: what delivery emails. */
  workbook: RenderedReport;
  html: { path: string; bytes: number };
}

const svgSize = (svg: string) => {
  const open = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  return { width: Number(/\bwidth="(\d+)"/.exec(open)?.[1] ?? 960), height: Number(/\bheight="(\d+)"/.exec(open)?.[1] ?? 340) };
};

export async function renderView(options: RenderViewOptions): Promise<RenderedView> {
  const { store, config } = options;
  const log = (options.logger ?? silentLogger).child('report');
  const cwd = options.cwd ?? process.cwd();
  const view = findView(config, options.view);
  const outFlag = options.outDir !== undefined ? '--out-dir' : 'config outDir';
  const outDir = checkFolderOutput({ flag: outFlag, path: resolve(cwd, options.outDir ?? config.outDir), dbPath: store.path }, { mayHoldDatabase: true });
  const answer = await savedViewAnswer(store, config, view);
  const r = answer.request;
  const clock = (await store.one<{ at: string }>(`select strftime(as_of, '%Y-%m-%dT%H:%M:%SZ') as at from report_clock`))!.at;
  const accounts = await readAccounts(store, config);
  const simulatedAccounts = accounts.filter((a) => a.simulated).map((a) => a.account);
  const asOfText = instantText(new Date(clock), config.timeZone);
  const heading: Heading = { title: view.title, lines: [...(view.description ? [view.description] : []), rangeLine(r), `Saved view ${view.name} · data as of ${asOfText}`], simulatedAccounts };

  const font = findChartFont(config.reports.chartFont === undefined ? undefined : resolve(cwd, config.reports.chartFont));
  if (!font.textRenders) log.warn(`no font found for chart text (tried ${font.source}); charts have no labels – install fonts-dejavu-core or set reports.chartFont`);
  const drawn = answerChartSvg(answer);
  const svg = drawn.text;
  const chart = { id: `view-${view.name}`, title: view.title, png: renderPng(svg, font), chart: drawn, svg, ...svgSize(svg), email: true, sql: '' };

  mkdirSync(outDir, { recursive: true });
  const period = { kind: 'range' as const, start: r.from, end: r.to, label: `${r.from}_${r.to}`, title: `${r.from} – ${r.to}` };
  const xlsxPath = checkFileOutput({ flag: outFlag, path: join(outDir, viewFileName(view.name, period.label, 'xlsx')), dbPath: store.path });
  log.info(`rendering view ${view.name} for ${period.title} to ${xlsxPath}`);
  const book = await writeViewWorkbook({ answer, heading, chart, sheetName: view.name.slice(0, 31), path: xlsxPath, dbPath: store.path });
  const htmlPath = checkFileOutput({ flag: outFlag, path: join(outDir, viewFileName(view.name, period.label, 'html')), dbPath: store.path });
  const page = viewPageHtml(answer, heading, drawn);
  writeFileAtomic(htmlPath, page, store.path);

  const total = answer.table.total;
  const unit = answerUnit(answer);
  const figure = { label: 'Total', value: total, format: unit, text: total === null ? '–' : valueText(r)(total), note: `${r.from} – ${r.to}`, upIsBad: r.metric === 'cost' };
  return {
    html: { path: htmlPath, bytes: Buffer.byteLength(page) },
    workbook: {
      path: book.path,
      bytes: book.bytes,
      summary: {
        report: view.name,
        title: view.title,
        definitionFile: `config views: ${view.name}`,
        period,
        asOf: new Date(clock).toISOString(),
        generatedAt: (options.now ?? new Date()).toISOString(),
        timeZone: config.timeZone,
        figures: [figure],
        charts: [chart],
        sheets: [{ name: view.name.slice(0, 31), rows: book.rows, totals: { total } }],
        accounts,
        simulatedAccounts,
        chartFont: font,
      },
    },
  };
}
