// What of each period the explorer's figures cover (coverage.ts): a week or month the range cuts, the day the data
// horizon falls in, the days past it – and which days the change compares, like with like, while a day is loading.
import { describe, expect, it } from 'vitest';
import { comparedRanges, isPartial, periodCoverage } from '../../src/explore/coverage.ts';

describe('explorer period coverage', () => {
  it('marks a week the range starts or ends inside, and the week holding the day still loading', () => {
    // Thursday 2026-10-22 to Friday 2026-11-20, loaded to 12:34 on the 20th
    const weeks = periodCoverage('2026-10-22', '2026-11-20', 'week', '2026-11-20T12:34:56Z');
    expect(weeks.map((w) => [w.start, w.days, w.length, isPartial(w)])).toEqual([
      ['2026-10-19', 4, 7, true],
      ['2026-10-26', 7, 7, false],
      ['2026-11-02', 7, 7, false],
      ['2026-11-09', 7, 7, false],
      ['2026-11-16', 5, 7, true],
    ]);
    expect(weeks[0]).toMatchObject({ first: '2026-10-22', last: '2026-10-25', loading: undefined, future: 0 });
    expect(weeks[4]).toMatchObject({ first: '2026-11-16', last: '2026-11-20', loading: { day: '2026-11-20', to: '12:34' }, future: 0 });
  });

  it('a whole month that has fully loaded is not partial; the month the range ends early in is', () => {
    const months = periodCoverage('2026-09-01', '2026-11-20', 'month', '2026-11-21T00:00:00Z');
    expect(months.map((m) => [m.start, m.days, m.length, isPartial(m)])).toEqual([
      ['2026-09-01', 30, 30, false],
      ['2026-10-01', 31, 31, false],
      ['2026-11-01', 20, 30, true],
    ]);
  });

  it('per day, only the day still loading and the days after it are partial', () => {
    const days = periodCoverage('2026-11-18', '2026-11-22', 'day', '2026-11-20T06:00:00Z');
    expect(days.map((d) => [d.start, isPartial(d), d.loading?.to, d.future])).toEqual([
      ['2026-11-18', false, undefined, 0],
      ['2026-11-19', false, undefined, 0],
      ['2026-11-20', true, '06:00', 0],
      ['2026-11-21', true, undefined, 1],
      ['2026-11-22', true, undefined, 1],
    ]);
  });

  it('compares the ended days with as many days from the start of the previous range', () => {
    expect(comparedRanges('2026-11-01', '2026-11-20', '2026-11-20T12:34:56Z')).toEqual({
      current: { from: '2026-11-01', to: '2026-11-19' },
      previous: { from: '2026-10-12', to: '2026-10-30' },
      whole: false,
      loading: { day: '2026-11-20', to: '12:34' },
    });
    // everything ended: the whole range against the whole previous one
    expect(comparedRanges('2026-11-01', '2026-11-20', '2026-11-21T00:00:00Z')).toMatchObject({ whole: true, previous: { from: '2026-10-12', to: '2026-10-31' } });
    // nothing ended yet: nothing to compare
    expect(comparedRanges('2026-11-20', '2026-11-20', '2026-11-20T08:00:00Z')).toMatchObject({ current: undefined, previous: undefined, whole: false });
  });
});
