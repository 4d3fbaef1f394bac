import { isMatch } from 'date-fns/isMatch';
import { describe, expect, it } from 'vitest';
import { isCalendarDay } from '../../src/util/calendar-day.ts';

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
