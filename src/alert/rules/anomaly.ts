// Anomaly rule: per series (family, template, endpoint, GPU type), complete days whose spend departs upward from
// the series' own rolling baseline (sql/alerts/anomaly_days.sql). One condition per series: it names the worst day
// of the window and the resources that drove it, escalates when a bigger departure appears, and resolves when no day
// of the window is anomalous any more.
import type { AnomalyRule } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../store/sql-files.ts';
import { usdText } from '../../util/money-text.ts';
import type { Condition } from '../types.ts';

type AnomalyDay = {
  account: string;
  dimension: string;
  series_id: string;
  series_name: string | null;
  day: string;
  amount: string;
  baseline_median: string;
  baseline_mad: string;
  baseline_days: string | number;
  score: number;
  ratio: string | null;
}

type Driver = {
  family: string;
  resource_id: string;
  resource_name: string | null;
  amount: string;
  baseline_average: string;
  excess: string;
}

const excess = (r: AnomalyDay) => Number(r.amount) - Number(r.baseline_median);

const DIMENSION_LABEL: Record<string, string> = { family: 'family', template: 'template', endpoint: 'endpoint', gpu_type: 'GPU type' };

export async function evaluateAnomalies(store: Store, rule: AnomalyRule): Promise<Condition[]> {
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
    const key = `anomaly:${row.account}:${row.dimension}:${row.series_id}`;
    const seen = worst.get(key);
    if (!seen) worst.set(key, { row, days: [row.day] });
    else {
      seen.days.push(row.day);
      // the day that cost the most above its baseline is the one to name
      if (excess(row) > excess(seen.row)) seen.row = row;
    }
  }
  const conditions: Condition[] = [];
  for (const [key, { row, days }] of worst) {
    const drivers = await store.all<Driver>(readSqlFile('alerts', 'anomaly_drivers'), {
      account: row.account,
      dimension: row.dimension,
      series_id: row.series_id,
      day: row.day,
      baseline_days: rule.baselineDays,
    });
    const score = Math.round(row.score * 10) / 10;
    // levels double with the score: threshold, 2×, 4×, 8× (capped: a series that had no spend at all has no scale)
    const level = Math.min(4, 1 + Math.max(0, Math.floor(Math.log2(row.score / rule.threshold))));
    const isNew = Number(row.baseline_median) === 0;
    const name = row.series_name ?? row.series_id;
    const label = DIMENSION_LABEL[row.dimension] ?? row.dimension;
    const ratio = row.ratio === null ? '' : ` (${row.ratio}× the baseline)`;
    const driverText = drivers.map((d) => `${d.resource_name ?? d.resource_id} +${usdText(d.excess)}`).join(', ');
    conditions.push({
      key,
      rule: 'anomaly',
      account: row.account,
      level,
      severity: level >= 2 ? 'critical' : 'warning',
      title: isNew
        ? `New spend: ${label} ${name} spent ${usdText(row.amount)} on ${row.day}, nothing on most days before`
        : `Spend anomaly: ${label} ${name} spent ${usdText(row.amount)} on ${row.day}${ratio}`,
      message:
        `${label} ${name} (${row.account}) spent ${usdText(row.amount)} on ${row.day} against a baseline median of ` +
        `${usdText(row.baseline_median)} (MAD ${usdText(row.baseline_mad)}, ${row.baseline_days} ${rule.weekdayAware ? 'like ' : ''}days)` +
        (isNew ? ': spend where there was almost none.' : `: ${score} robust standard deviations out.`) +
        (days.length > 1 ? ` Anomalous days in the last ${rule.windowDays}: ${days.join(', ')}.` : '') +
        (driverText ? ` Driven by: ${driverText}.` : ''),
      details: {
        dimension: row.dimension,
        series_id: row.series_id,
        series_name: name,
        day: row.day,
        days,
        amount: row.amount,
        baseline_median: row.baseline_median,
        baseline_mad: row.baseline_mad,
        score,
        ratio: row.ratio,
        drivers,
      },
    });
  }
  return conditions;
}
