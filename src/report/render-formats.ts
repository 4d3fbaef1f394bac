// A report in the formats asked for – the workbook, the HTML page or both – from one report session, so both show
// the same period at the same as-of. Which formats: --format, else the definition's `formats`, else the config's
// `reports.formats`, else the workbook alone.
import type { Config } from '../config/schema.ts';
import { UsageError } from '../util/errors.ts';
import { REPORT_FORMATS, type ReportDefinition, type ReportFormat } from './definition/index.ts';
import { writeHtmlReport, type RenderedHtml } from './html/index.ts';
import { writeWorkbook, type RenderedReport } from './render.ts';
import { withReportSession, type RenderReportOptions } from './report-session.ts';

export type { RenderedHtml } from './html/index.ts';

/** `--format xlsx|html|both` (or a comma list). */
export function parseReportFormats(text: string): ReportFormat[] {
  const words = text === 'both' ? [...REPORT_FORMATS] : text.split(',').map((w) => w.trim());
  const bad = words.find((w) => !(REPORT_FORMATS as readonly string[]).includes(w));
  if (bad !== undefined || words.length === 0) throw new UsageError(`--format must be xlsx, html or both, got '${text}'`);
  return [...new Set(words as ReportFormat[])];
}

export function reportFormats(def: Pick<ReportDefinition, 'formats'>, config: Config, asked?: readonly ReportFormat[]): ReportFormat[] {
  return [...(asked ?? def.formats ?? config.reports.formats ?? ['xlsx'])];
}

export interface RenderedFormats {
  workbook?: RenderedReport;
  html?: RenderedHtml;
}

/** `formats`: what was asked (--format), else the definition's or the config's; `ensure`: written whatever they say. */
export async function renderReportFormats(options: RenderReportOptions & { formats?: readonly ReportFormat[]; ensure?: readonly ReportFormat[] }): Promise<RenderedFormats> {
  return withReportSession(options, async (session) => {
    const formats = [...reportFormats(session.def, session.config, options.formats), ...(options.ensure ?? [])];
    const out: RenderedFormats = {};
    if (formats.includes('xlsx')) out.workbook = await writeWorkbook(session);
    if (formats.includes('html')) out.html = await writeHtmlReport(session);
    return out;
  });
}
