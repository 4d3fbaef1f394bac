// The one parser of the days and moments a user gives – URL parameters (from, to, period, as_of, changed_since),
// flags (--since, --until, --as-of, --period…), the config and imported files – so each is refused the same way,
// in one line that says what was given, what is accepted and what was wrong with it. A day must be one the calendar
// has (JavaScript's Date rolls 2026-02-30 into 2 March without a word) and a year at most 9999 (the forms are four
// digits; the day after 9999-12-31 is not a day any of them can write, issue 37).
// A light module: buckets.ts and the metric parser load at every CLI start and need nothing else of date-fns (its
// isMatch pulls in the whole format parser, ~75 modules).
import { isExists } from 'date-fns/isExists';
import { UsageError } from './errors.ts';

/** The last year a day or moment may name. */
export const MAX_YEAR = 9999;
/** The longest range of days one request may cover: a day granularity over it is still a table a person reads. */
export const MAX_RANGE_DAYS = 1100;

export const DAY_FORM = 'a day as YYYY-MM-DD';
export const MOMENT_FORM = 'an RFC 3339 date-time such as 2026-10-01T00:00:00Z';
export const DAY_OR_MOMENT_FORM = 'a day (YYYY-MM-DD, its end) or a UTC moment (YYYY-MM-DDTHH:MM:SSZ)';

/** A date given where one is asked for that is not one: a usage error (exit 2 on the command line, 400 in serve). */
export class DateInputError extends UsageError {}

const DAY = /^(\d{4,})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time: a full date, a time, and an explicit offset (Z or ±hh:mm). A bare date is not RFC 3339.
const RFC3339 = /^(\d{4,})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
// the explorer's moments (its links since issue 31): UTC, seconds and up to six decimals optional
const UTC_MOMENT = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?Z$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** What is wrong with a year, month and day written as digits, or undefined when the calendar has that day. */
function dateProblem(year: string, month: string, day: string): string | undefined {
  if (year.length > 4 || Number(year) > MAX_YEAR) return `years stop at ${MAX_YEAR}`;
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  if (m < 1 || m > 12) return `there is no month ${month}`;
  if (isExists(y, m - 1, d)) return undefined;
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate() - (m === 2 && !isExists(y, 1, 29) ? 1 : 0);
  return `${MONTHS[m - 1]} ${year} has ${days} days`;
}

function clockProblem(h: string, mi: string, s: string | undefined): string | undefined {
  if (Number(h) > 23) return `there is no hour ${h}`;
  if (Number(mi) > 59) return `there is no minute ${mi}`;
  // 60: a leap second, which RFC 3339 allows
  if (s !== undefined && Number(s) > 60) return `there is no second ${s}`;
  return undefined;
}

const refusal = (what: string, form: string, text: string, problem?: string) => `${what} must be ${form}, got '${text}'${problem ? `: ${problem}` : ''}`;

/** The year, month index (0–11) and day of a real calendar day written YYYY-MM-DD, else undefined. */
export function calendarDayParts(s: string): [year: number, monthIndex: number, day: number] | undefined {
  const m = DAY.exec(s);
  if (!m || dateProblem(m[1]!, m[2]!, m[3]!) !== undefined) return undefined;
  return [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
}

export function isCalendarDay(s: string): boolean {
  return calendarDayParts(s) !== undefined;
}

/** What the calendar says against a day written YYYY-MM-DD (a year past 9999, a month or day it lacks), or undefined. */
export function calendarProblem(text: string): string | undefined {
  const m = DAY.exec(text);
  return m ? dateProblem(m[1]!, m[2]!, m[3]!) : `it is not ${DAY_FORM}`;
}

/** The refusal of `text` as a day for `what` (a flag or parameter name), or undefined when it is one. */
export function dayProblem(text: string, what: string): string | undefined {
  if (!DAY.test(text)) return refusal(what, DAY_FORM, text);
  const problem = calendarProblem(text);
  return problem && refusal(what, DAY_FORM, text, problem);
}

/** A day the user gave (YYYY-MM-DD), checked; a DateInputError names `what`, the accepted form and the problem. */
export function parseDayText(text: string, what: string): string {
  const problem = dayProblem(text, what);
  if (problem) throw new DateInputError(problem);
  return text;
}

function momentProblemOf(m: RegExpExecArray | null): string | undefined | false {
  if (!m) return false;
  return dateProblem(m[1]!, m[2]!, m[3]!) ?? clockProblem(m[4]!, m[5]!, m[6]);
}

export function isRfc3339(s: string): boolean {
  const m = RFC3339.exec(s);
  return momentProblemOf(m) === undefined && !Number.isNaN(new Date(s).getTime());
}

/** The refusal of `text` as an RFC 3339 date-time for `what`, or undefined when it is one. */
export function momentProblem(text: string, what: string): string | undefined {
  const problem = momentProblemOf(RFC3339.exec(text));
  if (problem === false) return refusal(what, MOMENT_FORM, text);
  return problem && refusal(what, MOMENT_FORM, text, problem);
}

/** Parse an RFC 3339 timestamp or throw a DateInputError naming the flag, the accepted form and the problem. */
export function parseRfc3339(text: string, what: string): Date {
  const problem = momentProblem(text, what);
  if (problem) throw new DateInputError(problem);
  return new Date(text);
}

/** The refusal of `text` as a day or a UTC moment for `what` (the explorer's as_of, changed_since), or undefined. */
export function dayOrMomentProblem(text: string, what: string): string | undefined {
  const day = DAY.exec(text);
  const problem = day ? dateProblem(day[1]!, day[2]!, day[3]!) : momentProblemOf(UTC_MOMENT.exec(text));
  if (problem === false) return refusal(what, DAY_OR_MOMENT_FORM, text);
  return problem && refusal(what, DAY_OR_MOMENT_FORM, text, problem);
}

/** What is wrong with a range of real days [from, to] as one request's: backwards, or longer than MAX_RANGE_DAYS. */
export function rangeProblem(from: string, to: string, what = 'the range'): string | undefined {
  if (from > to) return `from (${from}) is after to (${to})`;
  const days = (Date.UTC(...calendarDayParts(to)!) - Date.UTC(...calendarDayParts(from)!)) / 86_400_000 + 1;
  return days > MAX_RANGE_DAYS ? `${what} covers ${days} days; at most ${MAX_RANGE_DAYS}` : undefined;
}

/** A day or a UTC moment the user gave, as written and as the moment it means: a day means its end. */
export function parseDayOrMoment(text: string, what: string): { text: string; at: string } {
  const problem = dayOrMomentProblem(text, what);
  if (problem) throw new DateInputError(problem);
  return { text, at: DAY.test(text) ? `${text}T23:59:59.999Z` : text };
}
