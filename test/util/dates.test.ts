import { isMatch } from 'date-fns/isMatch';
import { describe, expect, it } from 'vitest';
import { dayOrMomentProblem, isCalendarDay, isRfc3339, parseDayOrMoment, parseDayText, parseRfc3339 } from '../../src/util/dates.ts';

describe('isCalendarDay', () => {
  it('accepts the days the calendar has and refuses the rest, leap years included', () => {
    for (const day of ['2026-01-31', '2024-02-29', '2000-02-29', '2026-12-31', '1970-01-01']) expect(isCalendarDay(day), day).toBe(true);
    for (const day of ['2026-02-29', '1900-02-29', '2100-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-1-01', '26-01-01', '2026-01-01T00:00:00Z', ''])
      expect(isCalendarDay(day), day).toBe(false);
  });

  it('agrees with date-fns on every month-day pair of a leap year and of two common years', () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    for (const year of ['1900', '2024', '2026'])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const s = `${year}-${pad(month)}-${pad(day)}`;
          expect(`${s} ${isCalendarDay(s)}`).toBe(`${s} ${isMatch(s, 'yyyy-MM-dd')}`);
        }
  });
});

describe('RFC 3339 parsing', () => {
  it('accepts Z and offsets, with or without fractions', () => {
    for (const s of ['2026-10-01T00:00:00Z', '2026-10-01T02:00:00+02:00', '2026-10-01T00:00:00.123Z', '2028-02-29T23:59:59Z']) {
      expect(isRfc3339(s)).toBe(true);
    }
  });

  it('rejects dates without time or offset, and impossible dates', () => {
    for (const s of ['2026-10-01', '2026-10-01T00:00:00', 'yesterday', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-02-29T00:00:00Z', '2026-04-31T12:00:00Z', '2026-10-01T24:00:00Z', '2026-10-01T12:60:00Z']) {
      expect(isRfc3339(s)).toBe(false);
    }
  });

  it('names the flag and the accepted form in its error', () => {
    expect(() => parseRfc3339('2026-10-01', '--since')).toThrow(
      "--since must be an RFC 3339 date-time such as 2026-10-01T00:00:00Z, got '2026-10-01'",
    );
  });
});

describe('one parser for the days and moments a user gives', () => {
  it('refuses a day the calendar lacks in one line naming what was given, what is accepted and what was wrong', () => {
    expect(() => parseDayText('2026-02-30', 'from')).toThrow("from must be a day as YYYY-MM-DD, got '2026-02-30': February 2026 has 28 days");
    expect(() => parseDayText('2024-02-30', 'from')).toThrow("from must be a day as YYYY-MM-DD, got '2024-02-30': February 2024 has 29 days");
    expect(() => parseDayText('2026-04-31', 'to')).toThrow("to must be a day as YYYY-MM-DD, got '2026-04-31': April 2026 has 30 days");
    expect(() => parseDayText('2026-13-01', 'to')).toThrow("to must be a day as YYYY-MM-DD, got '2026-13-01': there is no month 13");
    expect(() => parseDayText('10000-01-01', 'to')).toThrow("to must be a day as YYYY-MM-DD, got '10000-01-01': years stop at 9999");
    expect(() => parseDayText('2026/10/01', 'to')).toThrow("to must be a day as YYYY-MM-DD, got '2026/10/01'");
    expect(parseDayText('9999-12-31', 'to')).toBe('9999-12-31');
    expect(isCalendarDay('10000-01-01')).toBe(false);
  });

  it('refuses the same way in a moment, a flag and a day-or-moment parameter', () => {
    expect(() => parseRfc3339('2026-02-30T00:00:00Z', '--as-of')).toThrow("--as-of must be an RFC 3339 date-time such as 2026-10-01T00:00:00Z, got '2026-02-30T00:00:00Z': February 2026 has 28 days");
    expect(() => parseRfc3339('10000-01-01T00:00:00Z', '--since')).toThrow("--since must be an RFC 3339 date-time such as 2026-10-01T00:00:00Z, got '10000-01-01T00:00:00Z': years stop at 9999");
    expect(() => parseRfc3339('2026-10-01T25:00:00Z', '--until')).toThrow("--until must be an RFC 3339 date-time such as 2026-10-01T00:00:00Z, got '2026-10-01T25:00:00Z': there is no hour 25");
    expect(dayOrMomentProblem('2026-02-30', 'as_of')).toBe("as_of must be a day (YYYY-MM-DD, its end) or a UTC moment (YYYY-MM-DDTHH:MM:SSZ), got '2026-02-30': February 2026 has 28 days");
    expect(dayOrMomentProblem('2026-02-30T10:00:00Z', 'changed_since')).toMatch(/^changed_since must be .*, got '2026-02-30T10:00:00Z': February 2026 has 28 days$/);
    expect(dayOrMomentProblem('10000-01-01', 'as_of')).toMatch(/: years stop at 9999$/);
  });

  it('reads a day as its end and a moment as itself', () => {
    expect(parseDayOrMoment('2026-11-02', 'as_of')).toEqual({ text: '2026-11-02', at: '2026-11-02T23:59:59.999Z' });
    expect(parseDayOrMoment('2026-11-02T10:00Z', 'as_of')).toEqual({ text: '2026-11-02T10:00Z', at: '2026-11-02T10:00Z' });
    expect(parseDayOrMoment('2028-02-29T23:59:59.5Z', 'as_of').at).toBe('2028-02-29T23:59:59.5Z');
  });
});
