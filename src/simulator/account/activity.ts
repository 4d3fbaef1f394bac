// Activity timelines of pods: when a pod runs and when it sits EXITED. Built once per pod from its schedule kind,
// stored as typed arrays (a large account has ~1,000 pods × hundreds of intervals) and read by the pod meter.
import type { Rng } from '../prng.ts';
import { hashUnit } from '../prng.ts';
import { DAY, HOUR, MINUTE, floorTo } from '../time.ts';
import { RUNNING, STOPPED, type Activity } from './types.ts';

export interface ActivityBuilder {
  /** Appends [start, end) in `state`; clipped to the builder's bounds, merged with an equal neighbour. */
  add(start: number, end: number, state: number): void;
  build(): Activity;
}

export function createActivityBuilder(from: number, to: number): ActivityBuilder {
  const starts: number[] = [];
  const ends: number[] = [];
  const states: number[] = [];
  return {
    add(start, end, state) {
      const s = Math.max(start, from, ends.length ? ends[ends.length - 1]! : -Infinity);
      const e = Math.min(end, to);
      if (e <= s) return;
      const last = states.length - 1;
      if (last >= 0 && states[last] === state && ends[last] === s) ends[last] = e;
      else {
        starts.push(s);
        ends.push(e);
        states.push(state);
      }
    },
    build: () => ({ starts: Float64Array.from(starts), ends: Float64Array.from(ends), states: Uint8Array.from(states) }),
  };
}

/** Index of the interval containing t, or -1. */
export function intervalAt(a: Activity, t: number): number {
  let lo = 0;
  let hi = a.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a.ends[mid]! <= t) lo = mid + 1;
    else if (a.starts[mid]! > t) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Index of the first interval that ends after t (the one to start scanning from for a window at t). */
export function firstEndingAfter(a: Activity, t: number): number {
  let lo = 0;
  let hi = a.ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a.ends[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const minuteOf = (t: number): number => floorTo(t, MINUTE);

/** A run, then a stop, in turn from `from` to `to`, each as long as its draw says (ms); every change on a minute. */
function alternatingActivity(from: number, to: number, runFor: () => number, stopFor: () => number): Activity {
  const b = createActivityBuilder(from, to);
  let t = from;
  while (t < to) {
    const run = runFor();
    b.add(t, t + run, RUNNING);
    t = minuteOf(t + run);
    const stop = stopFor();
    b.add(t, t + stop, STOPPED);
    t = minuteOf(t + stop);
  }
  return b.build();
}

/** Always on, with an occasional maintenance stop of a few hours to two days. */
export function serviceActivity(rng: Rng, from: number, to: number): Activity {
  return alternatingActivity(from, to, () => rng.between(10, 90) * DAY, () => rng.between(3 * HOUR, 2 * DAY));
}

/** Business hours on weekdays (UTC, with a jitter per day); EXITED at night, at weekends and on skipped days. */
export function devActivity(salt: number, from: number, to: number): Activity {
  const b = createActivityBuilder(from, to);
  b.add(from, from + 2 * HOUR, RUNNING); // a new pod runs first, whatever the hour; the schedule takes over after
  for (let day = floorTo(from, DAY); day < to; day += DAY) {
    const n = day / DAY;
    const weekday = (n + 4) % 7; // 1970-01-01 was a Thursday: 0 = Sunday … 6 = Saturday
    const skipped = weekday === 0 || weekday === 6 || hashUnit(salt, n * 3) < 0.08;
    if (skipped) {
      b.add(day, day + DAY, STOPPED);
      continue;
    }
    const on = day + 7 * HOUR + minuteOf(hashUnit(salt, n * 3 + 1) * 2 * HOUR);
    const off = day + 16 * HOUR + minuteOf(hashUnit(salt, n * 3 + 2) * 4 * HOUR);
    b.add(day, on, STOPPED);
    b.add(on, off, RUNNING);
    b.add(off, day + DAY, STOPPED);
  }
  return b.build();
}

/** Interactive sessions: runs of hours to days separated by EXITED stretches. */
export function sessionsActivity(rng: Rng, from: number, to: number): Activity {
  return alternatingActivity(from, to, () => rng.between(2 * HOUR, 3 * DAY), () => rng.between(6 * HOUR, 10 * DAY));
}

/** Running from start to end without a break. */
export function continuousActivity(from: number, to: number): Activity {
  const b = createActivityBuilder(from, to);
  b.add(from, to, RUNNING);
  return b.build();
}

/** Running from `from` until `to`, then EXITED until `exitedUntil`. */
export function runThenExit(from: number, to: number, exitedUntil: number): Activity {
  const b = createActivityBuilder(from, exitedUntil);
  b.add(from, to, RUNNING);
  b.add(to, exitedUntil, STOPPED);
  return b.build();
}
