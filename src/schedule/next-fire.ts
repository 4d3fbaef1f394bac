// When a cron job fires next, in a time zone, across DST changes. Ours, not node-cron's scheduler: node-cron 4 reads
// the real clock (no injected clock for tests) and never fires a wall time in a DST gap; cronie and systemd do:
// - a wall time that does not exist (spring-forward gap) fires when the gap ends, for jobs that run at most once an
//   hour's worth of wall times (a daily 02:30 runs at 03:00 that day, not never);
// - a wall time that exists twice (fall-back repeat) fires once, at its first occurrence, for such jobs;
// - jobs whose hour field is `*` follow the real clock: each real hour that shows the minute fires, so a repeated
//   hour fires twice and a skipped hour is skipped.
import type { CronFields } from '../util/cron-expression.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, firstInstantFrom, instantsOfWall, wallOf } from './zoned-time.ts';

function dayMatches(fields: CronFields, wallDay: number): boolean {
  const d = new Date(wallDay);
  return fields.months.has(d.getUTCMonth() + 1) && fields.daysOfMonth.has(d.getUTCDate()) && fields.daysOfWeek.has(d.getUTCDay());
}

/** The first instant strictly after `after` at which the job fires. Searches up to 5 years ahead (Feb 29 jobs). */
export function nextFire(fields: CronFields, timeZone: string, after: number): number {
  const startWall = wallOf(after, timeZone);
  let day = Math.floor(startWall / DAY_MS) * DAY_MS - DAY_MS; // a day early: a repeat can map yesterday's wall time later
  const limit = day + 5 * 366 * DAY_MS;
  for (; day < limit; day += DAY_MS) {
    if (!dayMatches(fields, day)) continue;
    for (const h of fields.hours) {
      for (const m of fields.minutes) {
        const wall = day + h * HOUR_MS + m * MINUTE_MS;
        const instants = instantsOfWall(wall, timeZone);
        let candidates: number[];
        if (instants.length === 0) candidates = fields.everyHour ? [] : [firstInstantFrom(wall, timeZone)];
        else candidates = fields.everyHour ? instants : [instants[0]!];
        const hit = candidates.find((t) => t > after);
        if (hit !== undefined) return hit;
      }
    }
  }
  throw new Error('no fire time within 5 years');
}

/** The last instant at or before `at` at which the job fired (for catching up a missed run), or undefined. */
export function previousFire(fields: CronFields, timeZone: string, at: number, lookbackMs = 8 * DAY_MS): number | undefined {
  let t = at - lookbackMs;
  let last: number | undefined;
  for (;;) {
    const next = nextFire(fields, timeZone, t);
    if (next > at) return last;
    last = next;
    t = next;
  }
}
