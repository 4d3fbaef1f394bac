// The names of a report's files, said once: the workbook and the HTML page of one report and period sit side by side
// and each says where the other is (the page's note on a cut table names the workbook).
import type { ReportPeriod } from './period/index.ts';

export function workbookFileName(report: string, period: Pick<ReportPeriod, 'label'>): string {
  return `gpuledger-${report}-${period.label}.xlsx`;
}

export function htmlFileName(report: string, periodLabel: string): string {
  return `gpuledger-${report}-${periodLabel}.html`;
}

/** A table section's CSV download from the page: report, period and section. */
export function sectionCsvName(report: string, periodLabel: string, sectionSlug: string): string {
  return `${report}-${periodLabel}-${sectionSlug}.csv`;
}

/** A saved view's workbook or page (`report --view`): the view's name and the days it covers. */
export function viewFileName(view: string, rangeLabel: string, ext: 'xlsx' | 'html'): string {
  return `gpuledger-view-${view}-${rangeLabel}.${ext}`;
}
