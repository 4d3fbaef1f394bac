// Wall-clock time in an IANA zone, for cron. A "wall" value is the local date and time written as if it were UTC
// (Date.UTC of the local fields), so local calendar arithmetic never crosses a DST change by accident. Turning a
// wall value back into instants gives 1 instant normally, 2 in a fall-back repeat, 0 in a spring-forward gap.
import { TZDate, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns/format';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export function offsetMs(timeZone: string, instant: number): number {
  return tzOffset(timeZone, new Date(instant)) * MINUTE_MS;
}

export function wallOf(instant: number, timeZone: string): number {
  return instant + offsetMs(timeZone, instant);
}

/** The instants whose local time in the zone is `wall`, ascending: [] in a gap, two in a repeat. */
export function instantsOfWall(wall: number, timeZone: string): number[] {
  // a transition shifts the offset by hours at most, so the offsets a day either side are the candidates
  const offsets = new Set([offsetMs(timeZone, wall - DAY_MS), offsetMs(timeZone, wall), offsetMs(timeZone, wall + DAY_MS)]);
  return [...offsets]
    .map((o) => wall - o)
    .filter((t) => wallOf(t, timeZone) === wall)
    .sort((a, b) => a - b);
}

/** The first instant whose local time is at or after `wall` – for a wall time in a gap, the moment the gap ends. */
export function firstInstantFrom(wall: number, timeZone: string): number {
  const offsets = [offsetMs(timeZone, wall - DAY_MS), offsetMs(timeZone, wall + DAY_MS)];
  let lo = wall - Math.max(...offsets); // reads earlier than `wall`
  let hi = wall - Math.min(...offsets); // reads at or after `wall`
  if (wallOf(lo, timeZone) >= wall) return lo;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallOf(mid, timeZone) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** `2026-10-25 06:00 +01:00` – what a person reads in logs and in `schedule --list`. */
export function formatInZone(instant: number, timeZone: string): string {
  return format(new TZDate(instant, timeZone), 'yyyy-MM-dd HH:mm xxx');
}
