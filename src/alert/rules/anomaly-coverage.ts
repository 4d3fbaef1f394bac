// Which days of the anomaly window are not scored, named exactly, and why (sql/alerts/anomaly_coverage.sql): a day is
// scored against at least 5 days of synced billing in its baseline – days of its own kind when weekday-aware – so a
// young database leaves the first days of each kind unscored (a weekend day needs five weekends' worth of history,
// weeks after the first weekday is scored), and a short baseline can leave weekend days unscored for good.
import { tz } from '@date-fns/tz';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import type { AnomalyRule } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';

type Unscored = { account: string; first_covered_day: string; day: string; kind: string; like_days: number; short_history: boolean };

const UTC = { in: tz('UTC') };

/** "2026-11-01..2026-11-03, 2026-11-07": consecutive days said as a range. */
export function dayRanges(days: readonly string[]): string {
  const runs: [string, string][] = [];
  for (const d of [...days].sort()) {
    const last = runs.at(-1);
    if (last && differenceInCalendarDays(d, last[1], UTC) === 1) last[1] = d;
    else runs.push([d, d]);
  }
  return runs.map(([a, b]) => (a === b ? a : `${a}..${b}`)).join(', ');
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

const plural = (kind: string) => `${kind}s`;

function span(rows: readonly Unscored[]): string {
  const counts = rows.map((r) => r.like_days);
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return lo === hi ? `${lo}` : `${lo}–${hi}`;
}

// the fewest baseline days that give every weekend day five weekend days before it: a Saturday's fifth is the
// Sunday 20 days earlier (a Sunday's, the Saturday 15 days earlier)
const WEEKEND_BASELINE_DAYS = 20;

/** One sentence per account whose anomaly window has days that are not scored, naming them; none when all are. */
export async function anomalyCoverageNotes(store: Store, rule: AnomalyRule): Promise<string[]> {
  const rows = await store.all<Unscored>(readSqlFile('alerts', 'anomaly_coverage'), {
    window_days: rule.windowDays,
    baseline_days: rule.baselineDays,
    weekday_aware: rule.weekdayAware,
  });
  const byAccount = groupBy(rows, (r) => r.account);
  const like = rule.weekdayAware ? 'like days (weekdays against weekdays, weekend days against weekend days)' : 'days';
  const notes: string[] = [];
  for (const [account, unscored] of byAccount) {
    const parts: string[] = [];
    const history = unscored.filter((r) => r.short_history);
    for (const [kind, group] of groupBy(history, (r) => r.kind)) {
      parts.push(`${plural(kind)} ${dayRanges(group.map((r) => r.day))} (${span(group)} before them)`);
    }
    const window = unscored.filter((r) => !r.short_history);
    for (const [kind, group] of groupBy(window, (r) => r.kind)) {
      parts.push(
        `${plural(kind)} ${dayRanges(group.map((r) => r.day))} (${span(group)} in a ${rule.baselineDays}-day baseline; ` +
          `alerts.anomaly.baselineDays ${WEEKEND_BASELINE_DAYS} gives every weekend day 5)`,
      );
    }
    const why = history.length > 0 ? `; ${account}'s synced billing starts on ${history[0]!.first_covered_day} – sync.start further back gives them a baseline` : '';
    notes.push(
      `anomaly: ${account}: ${unscored.length} of the last ${rule.windowDays} days are not scored, having fewer than 5 ${like} of synced billing ` +
        `in the ${rule.baselineDays} days before them: ${parts.join('; ')}${why}`,
    );
  }
  return notes;
}
