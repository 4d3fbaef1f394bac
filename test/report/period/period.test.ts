import { describe, expect, it } from 'vitest';
import { defaultPeriod, parsePeriod, periodEndExclusive } from '../../../src/report/period/period.ts';
import { UsageError } from '../../../src/util/errors.ts';

describe('--period', () => {
  it('takes a calendar month', () => {
    expect(parsePeriod('2026-02')).toEqual({ kind: 'month', start: '2026-02-01', end: '2026-02-28', label: '2026-02', title: 'February 2026' });
    expect(periodEndExclusive(parsePeriod('2026-12')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('takes an inclusive day range', () => {
    expect(parsePeriod('2026-10-01..2026-10-15')).toEqual({
      kind: 'range',
      start: '2026-10-01',
      end: '2026-10-15',
      label: '2026-10-01_2026-10-15',
      title: '1–15 October 2026',
    });
    expect(parsePeriod('2026-12-30..2027-01-02').title).toBe('30 December 2026 – 2 January 2027');
    expect(parsePeriod('2026-10-07..2026-10-07').end).toBe('2026-10-07');
  });

  it.each(['2026-13', '2026-1', 'October', '2026-02-30..2026-03-01', '2026-10-01..', '2026-10-01...2026-10-02', '2026-10-01T00:00:00Z', ''])(
    'refuses %j with a usage error saying what is accepted',
    (text) => {
      const e = (() => {
        try {
          parsePeriod(text);
        } catch (err) {
          return err;
        }
      })();
      expect(e).toBeInstanceOf(UsageError);
      expect((e as Error).message).toMatch(/^--period takes a month such as 2026-10 or a day range such as 2026-10-01\.\.2026-10-15 \(inclusive days\)/);
      expect((e as Error).message).not.toContain('\n');
    },
  );

  it.each([
    ['2026-13', "got '2026-13': there is no month 13"],
    ['10000-01', "got '10000-01': years stop at 9999"],
    ['2026-02-30..2026-03-01', "got '2026-02-30..2026-03-01': 2026-02-30: February 2026 has 28 days"],
    ['2026-10-01..10000-01-01', "got '2026-10-01..10000-01-01': 10000-01-01: years stop at 9999"],
  ])('says what is wrong with %j: a day or month the calendar lacks, a year past 9999', (text, said) => {
    expect(() => parsePeriod(text)).toThrow(`--period takes a month such as 2026-10 or a day range such as 2026-10-01..2026-10-15 (inclusive days), ${said}`);
    // serve's ?period= says the same, naming its parameter
    expect(() => parsePeriod(text, 'period')).toThrow(`period takes a month such as 2026-10 or a day range such as 2026-10-01..2026-10-15 (inclusive days), ${said}`);
  });

  it('refuses a range that ends before it starts', () => {
    expect(() => parsePeriod('2026-10-15..2026-10-01')).toThrow(/ends before it starts/);
  });

  it('defaults to month to date or the previous month as of the data day', () => {
    expect(defaultPeriod('month_to_date', '2026-11-21')).toMatchObject({ kind: 'month_to_date', start: '2026-11-01', end: '2026-11-21', label: '2026-11-21' });
    expect(defaultPeriod('previous_month', '2026-11-21')).toMatchObject({ kind: 'month', start: '2026-10-01', end: '2026-10-31', label: '2026-10' });
    expect(defaultPeriod('previous_month', '2027-01-01')).toMatchObject({ start: '2026-12-01', end: '2026-12-31', label: '2026-12' });
  });
});

describe('--period in any machine time zone', () => {
  // the days are UTC days (the API's buckets): a cron host in Kiritimati (UTC+14) or Los Angeles reads the same period
  for (const zone of ['Pacific/Kiritimati', 'America/Los_Angeles']) {
    it(`is the same in ${zone}`, () => {
      const saved = process.env.TZ;
      process.env.TZ = zone; // Node reads TZ again when it changes
      try {
        expect(parsePeriod('2026-03')).toEqual({ kind: 'month', start: '2026-03-01', end: '2026-03-31', label: '2026-03', title: 'March 2026' });
        expect(defaultPeriod('previous_month', '2026-01-01')).toMatchObject({ start: '2025-12-01', end: '2025-12-31', title: 'December 2025' });
        expect(defaultPeriod('month_to_date', '2026-03-31')).toMatchObject({ start: '2026-03-01', title: '1–31 March 2026 (month to date)' });
        expect(periodEndExclusive(parsePeriod('2026-12-31..2026-12-31')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
        expect(() => parsePeriod('2026-02-29')).toThrow(UsageError);
        expect(() => parsePeriod('2026-02-29..2026-03-01')).toThrow(UsageError);
      } finally {
        if (saved === undefined) delete process.env.TZ;
        else process.env.TZ = saved;
      }
    });
  }
});
