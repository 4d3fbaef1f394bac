// A span of time the user gives as a count and a unit (`90m`, `12h`, `7d`): how long something lasts from now, so an
// example or a cron job that names it stays true whatever the date.
import { UsageError } from './errors.ts';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([1-9]\d{0,5})([mhd])$/;

/** Milliseconds of a duration such as `7d`, or a UsageError naming the flag and the accepted forms. */
export function parseDuration(s: string, what: string): number {
  const m = DURATION.exec(s);
  if (!m) throw new UsageError(`${what} must be a whole number of minutes, hours or days such as 90m, 12h or 7d, got '${s}'`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}
