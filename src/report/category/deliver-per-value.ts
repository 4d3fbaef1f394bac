// Delivering a per-value report (showback): each value's files to that value's own recipients
// (reports.delivery.<report>.recipientsByValue), one email each carrying only its own files, and the summary to the
// report's `recipients`. A value without recipients is written but not emailed – said in one line, not an error.
import type { Config } from '../../config/schema.ts';
import { ConfigError } from '../../util/errors.ts';
import { deliverReport, type DeliverReportOptions, type DeliveryResult } from '../delivery/index.ts';
import type { CategoryRendering } from './per-value.ts';

export interface CategoryDelivery {
  results: DeliveryResult[];
  /** The file sets written but not emailed for want of recipients ("team 'research'", "the summary"). */
  notSent: string[];
}

/** Whom each value and the summary go to; throws ConfigError (exit 2) when nobody at all would receive anything. */
export function categoryRecipients(config: Config, report: string): { byValue: Record<string, string[]>; summary: string[] } {
  const delivery = config.reports.delivery[report];
  const byValue = delivery?.recipientsByValue ?? {};
  const summary = delivery?.recipients ?? [];
  if (summary.length === 0 && Object.values(byValue).every((r) => r.length === 0)) {
    throw new ConfigError(`no recipients for report '${report}': set reports.delivery.${report}.recipientsByValue (per value) and .recipients (the summary) in the config`);
  }
  if (!config.smtp) throw new ConfigError('smtp is not configured: add an "smtp" section (host, port, from) to the config');
  return { byValue, summary };
}

export async function deliverCategoryReports(
  options: Omit<DeliverReportOptions, 'rendered' | 'html' | 'recipients'> & { report: string; rendering: CategoryRendering },
): Promise<CategoryDelivery> {
  const { config, report, rendering } = options;
  const { byValue, summary } = categoryRecipients(config, report);
  const results: DeliveryResult[] = [];
  const notSent: string[] = [];
  const sets = [
    ...rendering.values.map((v) => ({ what: `${rendering.category} '${v.value}'`, files: v.files, to: byValue[v.value] ?? [] })),
    ...(rendering.summary ? [{ what: 'the summary', files: rendering.summary, to: summary }] : []),
  ];
  for (const set of sets) {
    if (!set.files.workbook) continue;
    if (set.to.length === 0) {
      notSent.push(set.what);
      continue;
    }
    results.push(await deliverReport({ ...options, rendered: set.files.workbook, html: set.files.html, recipients: set.to }));
  }
  return { results, notSent };
}
