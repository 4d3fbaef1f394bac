// Calendar days as the API buckets them: UTC days written YYYY-MM-DD. The one home of day arithmetic (reports, the
// explorer), done by date-fns in its UTC context so the machine's own time zone never moves a day.
// date-fns by subpath: its index loads all ~300 of its modules into every CLI start, these need a few dozen
import { tz } from '@date-fns/tz';
import { addDays as addCalendarDays } from 'date-fns/addDays';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { format } from 'date-fns/format';
import { startOfISOWeek } from 'date-fns/startOfISOWeek';
import { startOfMonth } from 'date-fns/startOfMonth';
import { calendarDayParts } from './dates.ts';

const UTC = { in: tz('UTC') };

/** A YYYY-MM-DD day as its UTC midnight, or undefined when it is not a real calendar day (2026-02-30). */
export function parseDay(s: string): Date | undefined {
  const parts = calendarDayParts(s);
  return parts && new Date(Date.UTC(...parts));
}

export function formatDay(t: Date): string {
  return format(t, 'yyyy-MM-dd', UTC);
}

/** The day n days after `day` (before, for a negative n). */
export function addDays(day: string, n: number): string {
  return formatDay(addCalendarDays(dayAt(day), n, UTC));
}

/** How many days from `from` through `to`, both counted. */
export function daysInclusive(from: string, to: string): number {
  return differenceInCalendarDays(dayAt(to), dayAt(from), UTC) + 1;
}

/**
 * Every day from `from` through `to`, counted rather than compared: a loop of `day <= to` with day = addDays(day, 1)
 * steps past 9999-12-31 into "10000-01-01", which sorts before "9999-…" as text and so never ends (issue 37).
 */
export function daysFromTo(from: string, to: string): string[] {
  const n = daysInclusive(from, to);
  return Array.from({ length: Math.max(0, n) }, (_, i) => addDays(from, i));
}

/** The Monday that starts `day`'s week (DuckDB's date_trunc('week')). */
export function weekStart(day: string): string {
  return formatDay(startOfISOWeek(dayAt(day), UTC));
}

export function monthStart(day: string): string {
  return formatDay(startOfMonth(dayAt(day), UTC));
}

function dayAt(day: string): Date {
  const t = parseDay(day);
  if (!t) throw new RangeError(`'${day}' is not a day (YYYY-MM-DD)`);
  return t;
}
