// Fire times across DST changes in Europe/Berlin (2026-03-29 02:00 → 03:00, 2026-10-25 03:00 → 02:00) and in a zone
// without DST, checked against instants written out by hand.
import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/util/cron-expression.ts';
import { nextFire, previousFire } from '../../src/schedule/next-fire.ts';

const BERLIN = 'Europe/Berlin';

function fires(cron: string, tz: string, from: string, to: string): string[] {
  const fields = parseCron(cron);
  const out: string[] = [];
  let t = Date.parse(from);
  for (;;) {
    t = nextFire(fields, tz, t);
    if (t >= Date.parse(to)) return out;
    out.push(new Date(t).toISOString().replace(':00.000Z', 'Z'));
  }
}

describe('nextFire', () => {
  it('runs a daily 06:00 job at 06:00 local on both sides of each DST change', () => {
    expect(fires('0 6 * * *', BERLIN, '2026-03-27T12:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
      '2026-03-28T05:00Z', // CET, UTC+1
      '2026-03-29T04:00Z', // CEST from 02:00 local that night
      '2026-03-30T04:00Z',
    ]);
    expect(fires('0 6 * * *', BERLIN, '2026-10-23T12:00:00Z', '2026-10-27T00:00:00Z')).toEqual([
      '2026-10-24T04:00Z',
      '2026-10-25T05:00Z', // back to CET
      '2026-10-26T05:00Z',
    ]);
  });

  it('runs a daily job whose time falls in the spring gap when the gap ends, and once in the autumn repeat', () => {
    expect(fires('30 2 * * *', BERLIN, '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
      '2026-03-28T01:30Z',
      '2026-03-29T01:00Z', // 02:30 does not exist: 03:00 CEST
      '2026-03-30T00:30Z',
    ]);
    expect(fires('30 2 * * *', BERLIN, '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z')).toEqual([
      '2026-10-24T00:30Z',
      '2026-10-25T00:30Z', // 02:30 CEST; the second 02:30 (CET, 01:30Z) does not run it again
      '2026-10-26T01:30Z',
    ]);
  });

  it('follows the real clock for hourly jobs: 23 runs on the short day, 25 on the long one', () => {
    expect(fires('0 * * * *', BERLIN, '2026-03-28T22:59:59Z', '2026-03-29T22:00:00Z')).toHaveLength(23);
    const long = fires('0 * * * *', BERLIN, '2026-10-24T21:59:59Z', '2026-10-25T23:00:00Z');
    expect(long).toHaveLength(25);
    expect(long.slice(0, 4)).toEqual(['2026-10-24T22:00Z', '2026-10-24T23:00Z', '2026-10-25T00:00Z', '2026-10-25T01:00Z']);
  });

  it('handles day-of-month, weekday and month fields, and zones without DST', () => {
    expect(fires('0 7 1 * *', 'Asia/Tokyo', '2026-10-15T00:00:00Z', '2027-01-15T00:00:00Z')).toEqual([
      '2026-10-31T22:00Z',
      '2026-11-30T22:00Z',
      '2026-12-31T22:00Z',
    ]);
    expect(fires('15 9 * * mon-fri', 'UTC', '2026-11-20T10:00:00Z', '2026-11-25T00:00:00Z')).toEqual([
      '2026-11-23T09:15Z',
      '2026-11-24T09:15Z',
    ]);
    expect(fires('0 0 29 2 *', 'UTC', '2026-01-01T00:00:00Z', '2029-01-01T00:00:00Z')).toEqual(['2028-02-29T00:00Z']);
  });

  it('finds the previous fire time for catching up', () => {
    const fields = parseCron('0 6 * * *');
    expect(new Date(previousFire(fields, BERLIN, Date.parse('2026-11-23T10:00:00Z'))!).toISOString()).toBe('2026-11-23T05:00:00.000Z');
    expect(new Date(previousFire(fields, BERLIN, Date.parse('2026-11-23T04:00:00Z'))!).toISOString()).toBe('2026-11-22T05:00:00.000Z');
  });
});
