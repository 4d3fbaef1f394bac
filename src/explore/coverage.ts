// How much of each period the view's figures cover, and what its change can honestly compare. A week or month the
// range covers only in part (the 30 days from a Thursday start mid-week) and the period the data horizon falls in
// (today, loaded to 12:34 UTC) hold less than a whole period: drawn like whole ones they read as a drop in spend.
// Cost Explorer and Vantage mark such a period; so does the page (explore-page.ts), from what is said here.
//
// The change compares like with like: the range's ended days – the days before the horizon's own – against the same
// number of days at the start of the previous range (the prior period to date). The facts are daily (cost_daily), so
// a part of a day cannot be matched with the same hours of another day; the day that is still loading counts in the
// totals and is left out of the change, and the page says so.
import { addDays, daysInclusive, monthStart, weekStart } from '../util/utc-days.ts';
import { previousRange, type Granularity } from './request.ts';

export interface PeriodCoverage {
  /** The period's first day (its start, as the table's heading shows it). */
  start: string;
  /** The days of the period inside the range, and the period's whole length in days. */
  first: string;
  last: string;
  days: number;
  length: number;
  /** The day of the period still loading (the horizon's day) with the time it is loaded to, 'HH:MM'; undefined when none. */
  loading: { day: string; to: string } | undefined;
  /** Days of the period after the horizon's day: not loaded yet. */
  future: number;
}

export interface ComparedRanges {
  /** The range's days the change compares, and the previous range's days they are compared with; undefined when no day
   * of the range has ended yet (nothing to compare). */
  current: { from: string; to: string } | undefined;
  previous: { from: string; to: string } | undefined;
  /** Whether the change compares the whole range with the whole previous one. */
  whole: boolean;
  /** The range's day still loading (its time, 'HH:MM' UTC), when it is in the range. */
  loading: { day: string; to: string } | undefined;
}

const utcDay = (moment: string) => new Date(moment).toISOString().slice(0, 10);
const utcTime = (moment: string) => new Date(moment).toISOString().slice(11, 16);

/** The horizon's day, with its time, when the horizon is inside a day (not at its midnight). */
function loadingDay(horizon: string): { day: string; to: string } | undefined {
  const to = utcTime(horizon);
  return to === '00:00' ? undefined : { day: utcDay(horizon), to };
}

function periodEnd(start: string, granularity: Granularity): string {
  if (granularity === 'day') return start;
  if (granularity === 'week') return addDays(start, 6);
  // the month's last day from its length, not the next month's start less one: December 9999 has no next month
  const [y, m] = start.split('-').map(Number) as [number, number];
  return `${start.slice(0, 8)}${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** Each period of [from, to] with the days of it the range covers and what of it is loaded by `horizon`. */
export function periodCoverage(from: string, to: string, granularity: Granularity, horizon: string): PeriodCoverage[] {
  const loading = loadingDay(horizon);
  // the first day nothing of is loaded: the horizon's day when it is loading, else the day it starts
  const unloaded = loading ? addDays(loading.day, 1) : utcDay(horizon);
  const out: PeriodCoverage[] = [];
  let day = from;
  while (day <= to) {
    const start = granularity === 'day' ? day : granularity === 'week' ? weekStart(day) : monthStart(day);
    const end = periodEnd(start, granularity);
    // a week that runs past 9999-12-31 ends, as far as any range goes, on it (its end is no day the calendar has)
    const beyond = end.length > 10;
    const last = !beyond && end < to ? end : to;
    const future = last < unloaded ? 0 : daysInclusive(day > unloaded ? day : unloaded, last);
    out.push({
      start,
      first: day,
      last,
      days: daysInclusive(day, last),
      length: granularity === 'week' ? 7 : daysInclusive(start, end),
      loading: loading && loading.day >= day && loading.day <= last ? loading : undefined,
      future,
    });
    if (last >= to) break;
    day = addDays(last, 1);
  }
  return out;
}

/** Whether a period holds less than a whole period of figures: cut by the range, still loading, or partly ahead. */
export function isPartial(p: PeriodCoverage): boolean {
  return p.days < p.length || p.loading !== undefined || p.future > 0;
}

/** The days the change compares: the range's ended days against as many days from the previous range's start. */
export function comparedRanges(from: string, to: string, horizon: string): ComparedRanges {
  const previous = previousRange(from, to);
  const lastEnded = addDays(utcDay(horizon), -1);
  const loading = loadingDay(horizon);
  const inRange = loading && loading.day >= from && loading.day <= to ? loading : undefined;
  if (lastEnded >= to) return { current: { from, to }, previous, whole: true, loading: undefined };
  if (lastEnded < from) return { current: undefined, previous: undefined, whole: false, loading: inRange };
  const days = daysInclusive(from, lastEnded);
  return { current: { from, to: lastEnded }, previous: { from: previous.from, to: addDays(previous.from, days - 1) }, whole: false, loading: inRange };
}
