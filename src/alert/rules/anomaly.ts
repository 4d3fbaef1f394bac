// Anomaly rule: per series (family, template, endpoint, GPU type), complete days whose spend departs upward from
// the series' own rolling baseline (sql/alerts/anomaly_days.sql). Each anomalous series names the worst day of the
// window and the resources that drove it; series driven by the same resource are one incident (anomaly-incident.ts),
// one condition that escalates when a bigger departure appears and resolves when none of its series is anomalous.
import type { AnomalyRule } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';
import type { Condition } from '../types.ts';
import { incidentsOf, type Driver, type SeriesAnomaly } from './anomaly-incident.ts';

type AnomalyDay = SeriesAnomaly['worst'] & { account: string; dimension: string; series_id: string; series_name: string | null };

const excess = (r: AnomalyDay) => Number(r.amount) - Number(r.baseline_median);

/** Every anomalous series of the window, with its worst day, its anomalous days and the resources that drove it. */
export async function seriesAnomalies(store: Store, rule: AnomalyRule): Promise<SeriesAnomaly[]> {
  const rows = await store.all<AnomalyDay>(readSqlFile('alerts', 'anomaly_days'), {
    baseline_days: rule.baselineDays,
    window_days: rule.windowDays,
    weekday_aware: rule.weekdayAware,
    threshold: rule.threshold,
    min_cost: rule.minCost,
  });
  const wanted = new Set<string>(rule.dimensions);
  const worst = new Map<string, { row: AnomalyDay; days: string[] }>();
  for (const row of rows) {
    if (!wanted.has(row.dimension)) continue;
    const key = `${row.account}:${row.dimension}:${row.series_id}`;
    const seen = worst.get(key);
    if (!seen) worst.set(key, { row, days: [row.day] });
    else {
      seen.days.push(row.day);
      // the day that cost the most above its baseline is the one to name
      if (excess(row) > excess(seen.row)) seen.row = row;
    }
  }
  const found: SeriesAnomaly[] = [];
  for (const { row, days } of worst.values()) {
    const drivers = await store.all<Omit<Driver, 'day'>>(readSqlFile('alerts', 'anomaly_drivers'), {
      account: row.account,
      dimension: row.dimension,
      series_id: row.series_id,
      day: row.day,
      baseline_days: rule.baselineDays,
    });
    // levels double with the score: threshold, 2×, 4×, 8× (capped: a series that had no spend at all has no scale)
    const level = Math.min(4, 1 + Math.max(0, Math.floor(Math.log2(row.score / rule.threshold))));
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
