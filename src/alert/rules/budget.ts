// Budget rule: spend so far (actual) and the forecast of the period's end against thresholds in % of the budget.
// The level orders every (threshold, basis) pair so that crossing a higher threshold, or the forecast's crossing
// becoming real, escalates: forecast 80 % < actual 80 % < forecast 100 % < actual 100 %.
// A forecast crosses a threshold when the month is likely to end past it, not merely forecast to: the figure compared
// is halfway from the forecast to the low end of its 80 % range (the account's own back-test error), so a month
// forecast a few percent over its budget – within the forecast's usual error – does not warn on day 1 and end under.
import type { DuckDBValue } from '@duckdb/node-api';
import type { BudgetRule } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';
import { unitText } from '../../model/index.ts';
import { decimalStringToMicros, microsToDecimalString } from '../../util/decimal.ts';
import type { Condition } from '../types.ts';

type SpendRow = {
  period_start: string;
  period_end: string;
  as_of_date: string;
  actual: string;
  forecast: string | null;
  forecast_low: string | null;
  has_history: boolean;
}

/** The forecast a threshold is judged on: halfway from the forecast to the low end of its range (exact, in micro-dollars). */
function likelyForecast(row: SpendRow): string | null {
  if (row.forecast === null) return null;
  if (row.forecast_low === null) return row.forecast;
  const f = decimalStringToMicros(row.forecast);
  const low = decimalStringToMicros(row.forecast_low);
  return microsToDecimalString(f - (f - (low < f ? low : f)) / 2n);
}

function scopeText(rule: BudgetRule): string {
  const parts = [
    rule.account ? `account ${rule.account}` : undefined,
    rule.scope.family ? `family ${rule.scope.family}` : undefined,
    rule.scope.template ? `template ${rule.scope.template}` : undefined,
    rule.scope.endpoint ? `endpoint ${rule.scope.endpoint}` : undefined,
    rule.scope.gpuType ? `GPU ${rule.scope.gpuType}` : undefined,
    rule.scope.category ? `${rule.scope.category} ${rule.scope.value}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'all spend';
}

/** Percent of budget, to one decimal, computed on micro-dollars (no float sums). */
function percentOf(amount: string, budget: string): number {
  const b = decimalStringToMicros(budget);
  if (b === 0n) return Infinity;
  return Number((decimalStringToMicros(amount) * 1000n) / b) / 10;
}

/** The share of the budget as the report shows it ("48.7 %": the percent unit, rounded, not cut at the decimal). */
function percentText(amount: string, budget: string): string {
  const b = decimalStringToMicros(budget);
  if (b === 0n) return '∞ %';
  // amount × 100 ÷ budget to 6 decimals, exactly; unitText rounds it to the unit's one decimal
  return unitText(microsToDecimalString((decimalStringToMicros(amount) * 100_000_000n) / b), 'percent');
}

async function spend(store: Store, rule: BudgetRule): Promise<SpendRow> {
  const fine = rule.scope.template ?? rule.scope.endpoint ?? rule.scope.gpuType ?? rule.scope.category;
  const params: Record<string, DuckDBValue> = { account: rule.account ?? null, family: rule.scope.family ?? null };
  // a month budget over an account or family alerts on the workbook's own forecast
  if (rule.period === 'month' && fine === undefined) {
    return (await store.all<SpendRow>(readSqlFile('alerts', 'budget_month_forecast'), params))[0]!;
  }
  Object.assign(params, {
    period: rule.period,
    template: rule.scope.template ?? null,
    endpoint: rule.scope.endpoint ?? null,
    gpu_type: rule.scope.gpuType ?? null,
    category: rule.scope.category ?? null,
    value: rule.scope.value ?? null,
  });
  return (await store.all<SpendRow>(readSqlFile('alerts', 'budget_spend'), params))[0]!;
}

/** A budget's alert key: one per budget, account and period, whatever threshold it is at. */
const budgetKey = (rule: BudgetRule, periodStart: string) => `budget:${rule.name}:${rule.account ?? '*'}:${periodStart}`;

/**
 * The budget's conditions now; where none holds, `clearNotes` gets why, under the key an earlier crossing fired with
 * (a forecast alert clears when the forecast falls back, and says to what).
 */
export async function evaluateBudget(store: Store, rule: BudgetRule, clearNotes?: Map<string, string>): Promise<Condition[]> {
  const row = await spend(store, rule);
  const periodLabel = rule.period === 'month' ? row.period_start.slice(0, 7) : `week of ${row.period_start}`;
  const crossed: { basis: 'actual' | 'forecast'; threshold: number; index: number; percent: number }[] = [];
  for (const basis of rule.on) {
    const amount = basis === 'actual' ? row.actual : likelyForecast(row);
    if (amount === null) continue;
    const percent = percentOf(amount, rule.amount);
    rule.thresholds.forEach((threshold, index) => {
      if (percent >= threshold) crossed.push({ basis, threshold, index, percent });
    });
  }
  if (crossed.length === 0) {
    const lowest = Math.min(...rule.thresholds);
    const likely = likelyForecast(row);
    const now =
      row.forecast === null
        ? `${unitText(row.actual, 'usd', { micros: true })} spent`
        : `the forecast fell back to ${unitText(row.forecast, 'usd', { micros: true })} (${percentText(row.forecast, rule.amount)}${likely !== null && likely !== row.forecast ? `; likely at least ${unitText(likely, 'usd', { micros: true })}, ${percentText(likely, rule.amount)}` : ''})`;
    clearNotes?.set(budgetKey(rule, row.period_start), `As of ${row.as_of_date} ${now}, below the ${lowest} % threshold of the ${unitText(rule.amount, 'usd', { micros: true })} ${rule.period}ly budget.`);
    return [];
  }
  const rank = (c: (typeof crossed)[number]) => c.index * 2 + (c.basis === 'actual' ? 2 : 1);
  const worst = crossed.reduce((a, b) => (rank(b) > rank(a) ? b : a));
  const severity = worst.basis === 'actual' && worst.threshold >= 100 ? 'critical' : worst.threshold >= 100 || (worst.basis === 'actual' && worst.threshold >= 80) ? 'warning' : 'info';
  // the method in words a person can check: what runs at the last complete day going on, plus the account's new work
  const forecastText =
    row.forecast === null
      ? 'no forecast yet'
      : `forecast ${unitText(row.forecast, 'usd', { micros: true })} (${percentText(row.forecast, rule.amount)}: what was running on the last complete day going on at its own rate, plus new work at the rate the account starts it)` +
        (row.forecast_low === null ? '' : `, likely at least ${unitText(likelyForecast(row)!, 'usd', { micros: true })} (${percentText(likelyForecast(row)!, rule.amount)}: halfway to the low end of its 80 % range, ${unitText(row.forecast_low, 'usd', { micros: true })}, the figure a forecast threshold is judged on)`);
  const title =
    worst.basis === 'actual'
      ? `Budget ${rule.name}: ${percentText(row.actual, rule.amount)} spent (${periodLabel})`
      : `Budget ${rule.name}: forecast to reach ${percentText(row.forecast!, rule.amount)} (${periodLabel})`;
  return [
    {
      key: budgetKey(rule, row.period_start),
      rule: 'budget',
      account: rule.account ?? '*',
      level: rank(worst),
      severity,
      title,
      message:
        `${scopeText(rule)}: ${unitText(row.actual, 'usd', { micros: true })} spent of a ${unitText(rule.amount, 'usd', { micros: true })} ${rule.period}ly budget ` +
        `(${percentText(row.actual, rule.amount)}) as of ${row.as_of_date}; ${forecastText}; crossed the ${worst.threshold} % threshold on the ${worst.basis}.`,
      details: {
        budget: rule.name,
        period: rule.period,
        period_start: row.period_start,
        period_end: row.period_end,
        budget_amount: rule.amount,
        actual: row.actual,
        forecast: row.forecast,
        threshold: worst.threshold,
        basis: worst.basis,
        scope: rule.scope,
      },
      expiresAt: new Date(`${row.period_end}T00:00:00Z`),
    },
  ];
}
