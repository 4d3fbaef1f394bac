import { describe, expect, it } from 'vitest';
import { addDays, daysFromTo, daysInclusive, monthStart, parseDay, weekStart } from '../../src/util/utc-days.ts';

describe('UTC calendar days', () => {
  it('parses a real day and refuses a well-formed impossible one', () => {
    expect(parseDay('2026-02-29')).toBeUndefined();
    expect(parseDay('2026-1-01')).toBeUndefined();
    expect(parseDay('2026-11-26')?.toISOString()).toBe('2026-11-26T00:00:00.000Z');
  });

  it('counts days across month, year and DST boundaries the same in any machine time zone', () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ['UTC', 'Europe/Berlin', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
        process.env.TZ = zone;
        expect(addDays('2026-03-28', 2)).toBe('2026-03-30'); // Europe's spring-forward weekend
        expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
        expect(daysInclusive('2026-10-25', '2026-11-01')).toBe(8);
        expect(daysInclusive('2026-11-26', '2026-11-26')).toBe(1);
        expect(weekStart('2026-11-22')).toBe('2026-11-16'); // a Sunday belongs to the week that began on Monday
        expect(weekStart('2026-11-23')).toBe('2026-11-23');
        expect(monthStart('2026-11-26')).toBe('2026-11-01');
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('refuses a malformed day instead of computing from it', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(/'2026-02-30' is not a day/);
  });
});

describe('the days of a range', () => {
  it('lists every day through the last one the calendar allows, and ends there (no "10000-01-01", which sorts before 9999)', () => {
    expect(daysFromTo('2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(daysFromTo('9999-12-30', '9999-12-31')).toEqual(['9999-12-30', '9999-12-31']);
    expect(daysFromTo('9999-01-01', '9999-12-31')).toHaveLength(365);
    expect(daysFromTo('2026-03-02', '2026-03-01')).toEqual([]);
  });
});
