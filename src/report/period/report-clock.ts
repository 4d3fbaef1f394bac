// The clock a report is evaluated at. views-contract.md: every "month to date" in the rpt_* views comes from
// `report_clock`, which honours `SET VARIABLE gpuledger_as_of`. A past period is evaluated as of its last second
// (period end − 1 s, so its last day is the "open day" the month-to-date figures include); the current period as
// of the data horizon. The period itself is also set as variables for SQL that prefers getvariable().
import { dateValue, decimalValue, timestampTZValue, type DuckDBValue } from '../../util/duckdb-api.ts';
import type { Store } from '../../store/database.ts';
import { hasView } from '../../store/has-view.ts';
import { StoreError, UsageError } from '../../util/errors.ts';
import { decimalStringToMicros } from '../../util/decimal.ts';
import { parseDay } from '../../util/utc-days.ts';
import { defaultPeriod, parsePeriod, periodEndExclusive, type DefaultPeriod, type ReportPeriod } from './period.ts';
import { parseTimestamp } from '../cells/index.ts';

export const REPORT_VARIABLES = ['gpuledger_as_of', 'gpuledger_period_start', 'gpuledger_period_end'] as const;

export interface ReportClock {
  period: ReportPeriod;
  /** The instant the report views are evaluated at. */
  asOf: Date;
  /** The data horizon (report_clock without a variable), when the view exists. */
  horizon: Date | undefined;
  /** The bound values of the definition parameters ($period_start, …). */
  params: Record<string, DuckDBValue>;
}

export async function resetReportVariables(store: Store): Promise<void> {
  for (const v of REPORT_VARIABLES) await store.run(`reset variable ${v}`);
}

function dayValue(day: string): DuckDBValue {
  const d = parseDay(day)!;
  return dateValue({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

export interface ClockOptions {
  periodText: string | undefined;
  /** What the period is called where it was given: '--period' (default), serve's 'period'. */
  periodName?: string;
  defaultPeriod: DefaultPeriod;
  budgetMonthly: string | undefined;
}

/** Resolve the period, set the session variables, and return the parameters (undo with resetReportVariables). */
export async function setReportClock(store: Store, options: ClockOptions): Promise<ReportClock> {
  await resetReportVariables(store);
  let horizon: Date | undefined;
  let horizonDay: string | undefined;
  if (await hasView(store, 'report_clock')) {
    const row = await store.one<{ as_of: string; as_of_date: string }>('select as_of, as_of_date from report_clock');
    if (row) {
      horizon = parseTimestamp(row.as_of);
      horizonDay = row.as_of_date;
    }
  }
  let period: ReportPeriod;
  if (options.periodText !== undefined) {
    period = parsePeriod(options.periodText, options.periodName);
  } else {
    if (!horizonDay) {
      throw new StoreError('the report_clock view is missing, so the default period is unknown; run gpuledger sync (it creates the views) or pass --period');
    }
    period = defaultPeriod(options.defaultPeriod, horizonDay);
  }
  const lastSecond = new Date(periodEndExclusive(period).getTime() - 1000);
  const asOf = horizon && horizon < lastSecond ? horizon : lastSecond;
  if (horizon && horizonDay && period.start > horizonDay) {
    throw new UsageError(`${options.periodName ?? '--period'} ${options.periodText} starts after the data, which reaches ${horizonDay}; run gpuledger sync first or pick an earlier period`);
  }
  const iso = asOf.toISOString();
  await store.run(`set variable gpuledger_as_of = timestamptz '${iso}'`);
  await store.run(`set variable gpuledger_period_start = date '${period.start}'`);
  await store.run(`set variable gpuledger_period_end = date '${period.end}'`);
  const micros = BigInt(asOf.getTime()) * 1000n;
  const params: Record<string, DuckDBValue> = {
    period_start: dayValue(period.start),
    period_end: dayValue(period.end),
    as_of: timestampTZValue(micros),
    // DECIMAL(18,2): the budget is given with at most 2 decimals (config/reports.ts)
    budget_monthly: options.budgetMonthly === undefined ? null : decimalValue(decimalStringToMicros(options.budgetMonthly) / 10_000n, 18, 2),
  };
  return { period, asOf, horizon, params };
}
