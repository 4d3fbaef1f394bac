// The period a report covers: `--period 2026-10` (a calendar month), `--period 2026-10-01..2026-10-15` (inclusive
// UTC days), or the report's default resolved against the data's clock (views-contract.md `report_clock`).
// Days are UTC calendar days, the API's day buckets.
import { TZDate, tz } from '@date-fns/tz';
import { addDays as addCalendarDays } from 'date-fns/addDays';
import { endOfMonth } from 'date-fns/endOfMonth';
import { format } from 'date-fns/format';
import { getMonth } from 'date-fns/getMonth';
import { getYear } from 'date-fns/getYear';
import { isSameMonth } from 'date-fns/isSameMonth';
import { startOfMonth } from 'date-fns/startOfMonth';
import { subMonths } from 'date-fns/subMonths';
import { calendarProblem, DateInputError } from '../../util/dates.ts';
import { formatDay, parseDay } from '../../util/utc-days.ts';


export const PERIOD_USAGE = "--period takes a month such as 2026-10 or a day range such as 2026-10-01..2026-10-15 (inclusive days)";
const periodUsage = (what: string) => PERIOD_USAGE.replace('--period', what);

export const DEFAULT_PERIODS = ['month_to_date', 'previous_month'] as const;
export type DefaultPeriod = (typeof DEFAULT_PERIODS)[number];

export type PeriodKind = 'month' | 'range' | 'month_to_date';

export interface ReportPeriod {
  kind: PeriodKind;
  /** First day, YYYY-MM-DD. */
  start: string;
  /** Last day, inclusive, YYYY-MM-DD. */
  end: string;
  /** For file names: 2026-10, 2026-11-21 (month to date), 2026-10-01_2026-10-15. */
  label: string;
  /** For people: "October 2026", "1–21 November 2026 (month to date)". */
  title: string;
}

// Every calculation runs in date-fns's UTC context, so the machine's own time zone never moves a day.
const UTC = { in: tz('UTC') };

function monthTitle(t: Date): string {
  return format(t, 'LLLL yyyy', UTC);
}

function rangeTitle(start: Date, end: Date): string {
  if (isSameMonth(start, end, UTC)) return `${format(start, 'd', UTC)}–${format(end, 'd', UTC)} ${monthTitle(end)}`;
  return `${format(start, 'd', UTC)} ${monthTitle(start)} – ${format(end, 'd', UTC)} ${monthTitle(end)}`;
}

export function monthPeriod(year: number, monthIndex: number): ReportPeriod {
  const start = new TZDate(year, monthIndex, 1, 'UTC'); // a month index of -1 is the previous year's December
  const end = endOfMonth(start, UTC);
  return { kind: 'month', start: formatDay(start), end: formatDay(end), label: format(start, 'yyyy-MM', UTC), title: monthTitle(start) };
}

export function rangePeriod(startDay: string, endDay: string): ReportPeriod {
  const start = parseDay(startDay)!;
  const end = parseDay(endDay)!;
  return { kind: 'range', start: startDay, end: endDay, label: `${startDay}_${endDay}`, title: rangeTitle(start, end) };
}

/** Month to date: the first of as-of day's month through the as-of day (the open day included). */
export function monthToDatePeriod(asOfDay: string): ReportPeriod {
  const end = parseDay(asOfDay)!;
  const start = startOfMonth(end, UTC);
  return {
    kind: 'month_to_date',
    start: formatDay(start),
    end: asOfDay,
    label: asOfDay,
    title: `${rangeTitle(start, end)} (month to date)`,
  };
}

/**
 * Parse the `--period` flag (serve's ?period=: `what` is then 'period'); a one-line DateInputError (exit 2, a 400)
 * says what is accepted and, for a day the calendar lacks or a year past 9999, what was wrong (util/dates.ts).
 */
export function parsePeriod(text: string, what = '--period'): ReportPeriod {
  const s = text.trim();
  const refused = (problem?: string) => new DateInputError(`${periodUsage(what)}, got '${text}'${problem ? `: ${problem}` : ''}`);
  const month = /^(\d{4,})-(\d{2})$/.exec(s);
  if (month) {
    // the month's first day says whether the month exists (no month 13, no year 10000)
    const problem = calendarProblem(`${s}-01`);
    if (problem) throw refused(problem);
    return monthPeriod(Number(month[1]), Number(month[2]) - 1);
  }
  const range = /^(\d{4,}-\d{2}-\d{2})\.\.(\d{4,}-\d{2}-\d{2})$/.exec(s);
  if (range) {
    for (const day of [range[1]!, range[2]!]) {
      const problem = calendarProblem(day);
      if (problem) throw refused(`${day}: ${problem}`);
    }
    if (range[1]! <= range[2]!) return rangePeriod(range[1]!, range[2]!);
    throw new DateInputError(`${periodUsage(what)}; '${text}' ends before it starts`);
  }
  throw refused();
}

/** A report's default period, as of the data's clock day (report_clock.as_of_date). */
export function defaultPeriod(kind: DefaultPeriod, asOfDay: string): ReportPeriod {
  if (kind === 'previous_month') {
    const previous = subMonths(parseDay(asOfDay)!, 1, UTC);
    return monthPeriod(getYear(previous), getMonth(previous));
  }
  return monthToDatePeriod(asOfDay);
}

/** Half-open end of the period: midnight UTC after its last day. */
export function periodEndExclusive(period: ReportPeriod): Date {
  return new Date(addCalendarDays(parseDay(period.end)!, 1, UTC).getTime());
}
