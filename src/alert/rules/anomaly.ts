// Anomaly rule: per series (family, template, endpoint, GPU type), complete days whose spend departs upward from what
// the series' habits lead one to expect (sql/alerts/anomaly_days.sql: its usual day, or for a series that runs jobs
// now and then, its past jobs). Each anomalous series names the worst day of the window and the resources that drove
// its anomalous days; series driven by the same resource are one incident (anomaly-incident.ts), one condition that
// escalates when a bigger departure appears and resolves when none of its series is anomalous.
//
// A day's level needs both a large departure and a large impact: the robust score's level (threshold, 2×, 4×, 8×)
// capped by the excess's share of the account's typical day (under criticalSharePct: 1, then doubling), so a wild
// swing of a small series is a warning and only a departure that moves the account's bill is critical.
import type { AnomalyRule } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';
import type { Condition } from '../types.ts';
import type { AnomalyDay } from './anomaly-comparison.ts';
import { incidentsOf, type Driver, type SeriesAnomaly } from './anomaly-incident.ts';

const excess = (r: AnomalyDay) => Number(r.excess);

/** 1–4: how far out the day is (the score against the threshold) and how much it costs the account, the lower. */
export function dayLevel(row: Pick<AnomalyDay, 'score' | 'excess' | 'account_typical'>, rule: AnomalyRule): number {
  const byScore = Math.min(4, Math.max(1, 1 + Math.floor(Math.log2(Math.max(row.score, Number.MIN_VALUE) / rule.threshold))));
  const typical = Number(row.account_typical);
  const share = typical > 0 ? (100 * Number(row.excess)) / typical : Infinity;
  const byImpact = share < rule.criticalSharePct ? 1 : Math.min(4, 2 + Math.floor(Math.log2(share / rule.criticalSharePct)));
  return Math.min(byScore, byImpact);
}

/** Every anomalous series of the window, with its worst day, its anomalous days and the resources that drove them. */
export async function seriesAnomalies(store: Store, rule: AnomalyRule): Promise<SeriesAnomaly[]> {
  const rows = await store.all<AnomalyDay>(readSqlFile('alerts', 'anomaly_days'), {
    baseline_days: rule.baselineDays,
    window_days: rule.windowDays,
    weekday_aware: rule.weekdayAware,
    threshold: rule.threshold,
    min_cost: rule.minCost,
    history_days: rule.historyDays,
    recurring_episodes: rule.recurringEpisodes,
    episode_ratio: rule.episodeRatio,
    min_share_pct: rule.minSharePct,
  });
  const wanted = new Set<string>(rule.dimensions);
  const worst = new Map<string, { row: AnomalyDay; days: string[]; level: number }>();
  for (const row of rows) {
    if (!wanted.has(row.dimension)) continue;
    const key = `${row.account}:${row.dimension}:${row.series_id}`;
    const seen = worst.get(key);
    if (!seen) worst.set(key, { row, days: [row.day], level: dayLevel(row, rule) });
    else {
      seen.days.push(row.day);
      // the level of the series is its worst day's by level, not by dollars: a job that keeps going escalates
      seen.level = Math.max(seen.level, dayLevel(row, rule));
      // the day that cost the most above what was expected is the one to name
      if (excess(row) > excess(seen.row)) seen.row = row;
    }
  }
  const found: SeriesAnomaly[] = [];
  for (const { row, days, level } of worst.values()) {
    const drivers = await store.all<Omit<Driver, 'day'>>(readSqlFile('alerts', 'anomaly_drivers'), {
      account: row.account,
      dimension: row.dimension,
      series_id: row.series_id,
      days: days.join(','),
      baseline_days: rule.baselineDays,
      history_days: rule.historyDays,
      recurring_episodes: rule.recurringEpisodes,
    });
    found.push({
      account: row.account,
      dimension: row.dimension,
      seriesId: row.series_id,
      name: row.series_name ?? row.series_id,
      worst: row,
      days,
      drivers: drivers.map((d) => ({ ...d, day: row.day })),
      level,
    });
  }
  return found;
}

export async function evaluateAnomalies(store: Store, rule: AnomalyRule): Promise<Condition[]> {
  return incidentsOf(await seriesAnomalies(store, rule), rule);
}
