// The option values several commands take, parsed once: a repeatable option's list and --wait's seconds.
import { UsageError } from '../util/errors.ts';

/** Commander's accumulator for a repeatable option: every value given, in order. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** --wait in milliseconds: the option takes seconds, a number ≥ 0; `fallback` seconds when it is not given. */
export function waitMs(value: string | undefined, fallback = 0): number {
  const wait = Number(value ?? fallback);
  if (!Number.isFinite(wait) || wait < 0) throw new UsageError(`--wait takes seconds (a number ≥ 0), got '${value}'`);
  return wait * 1000;
}
