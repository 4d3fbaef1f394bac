// How the anomaly coverage names unscored days: consecutive calendar days as one range, across a month's end.
import { describe, expect, it } from 'vitest';
import { dayRanges } from '../../src/alert/rules/anomaly-coverage.ts';

describe('dayRanges', () => {
  it('says consecutive days as a range, a lone day alone, in calendar order whatever the input order', () => {
    expect(dayRanges(['2026-11-07', '2026-11-01', '2026-11-03', '2026-11-02'])).toBe('2026-11-01..2026-11-03, 2026-11-07');
  });

  it('runs a range over a month and a year end, and breaks it at a missing day', () => {
    expect(dayRanges(['2026-10-30', '2026-10-31', '2026-11-01'])).toBe('2026-10-30..2026-11-01');
    expect(dayRanges(['2026-12-31', '2027-01-01', '2027-01-03'])).toBe('2026-12-31..2027-01-01, 2027-01-03');
    expect(dayRanges([])).toBe('');
  });
});
