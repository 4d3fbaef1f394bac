// A partial period's short mark, under its heading and its bar – on the /explore page and on a saved view's report.
import { isPartial, type PeriodCoverage } from './coverage.ts';
import type { ExploreRequest } from './request.ts';

/** "4 of 7 days", "so far, to 12:34 UTC", or undefined for a whole period. */
export function partialMark(p: PeriodCoverage, granularity: ExploreRequest['granularity']): string | undefined {
  if (!isPartial(p)) return undefined;
  if (granularity === 'day') return p.future > 0 ? 'not loaded yet' : `so far, to ${p.loading!.to} UTC`;
  return `${p.days - p.future} of ${p.length} days${p.loading || p.future > 0 ? ' so far' : ''}`;
}
