// Whether a YYYY-MM-DD string names a day of the calendar – no 2026-02-30, which Date would roll into March. A light
// module of its own: buckets.ts and the metric parser load at every CLI start and need nothing else of date-fns
// (its isMatch pulls in the whole format parser, ~75 modules); utc-days.ts builds its days on it.
import { isExists } from 'date-fns/isExists';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The year, month index (0–11) and day of a real calendar day written YYYY-MM-DD, else undefined. */
export function calendarDayParts(s: string): [year: number, monthIndex: number, day: number] | undefined {
  const m = DAY.exec(s);
  if (!m) return undefined;
  const [year, monthIndex, day] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  return isExists(year, monthIndex, day) ? [year, monthIndex, day] : undefined;
}

export function isCalendarDay(s: string): boolean {
  return calendarDayParts(s) !== undefined;
}
