// Sums of one meter over any hour-aligned window, as the API reports them at a given now:
// - a closed hour is final once now ≥ its end + 1 h: round(accrued) micro-dollars, computed once;
// - the hour before that (closed less than an hour ago) is preliminary: for restated meters it differs from the
//   final figure by a small correction (billing-api-v2.md §2: "recent closed buckets may still be restated");
// - the open hour holds what accrued up to the last 5-minute roll-up (§6), also preliminary for restated meters;
// - later hours are zero.
// Final amounts of whole days come from a per-meter prefix over days, built on first use, so a year of daily
// buckets costs one subtraction per bucket instead of 24 hour evaluations.
import { hashUnit } from '../prng.ts';
import { DAY, HOUR, ROLLUP_MS, ceilTo, floorTo } from '../time.ts';
import type { Meter } from './meters.ts';

export interface MeterSums {
  meter: Meter;
  /** Component count. */
  k: number;
  /** Adds the amounts of [a, b) (hour-aligned) as reported at `now` to out[offset + c]. */
  add(a: number, b: number, now: number, out: Float64Array, offset: number): void;
  /** Forget the day sums: the resource changed (a stop, a start, new worker settings) and later days differ. */
  invalidate(): void;
}

export function createMeterSums(meter: Meter, k: number, spanStart: number, spanDays: number): MeterSums {
  const scratch = new Float64Array(k);
  let prefix: Float64Array | null = null; // prefix[d * k + c]: final amount of component c before day d

  const hour = (h: number, cutoff: number): Float64Array => {
    scratch.fill(0);
    if (cutoff > h) meter.accrue(h, cutoff, scratch);
    for (let c = 0; c < k; c++) scratch[c] = Math.round(scratch[c]!);
    return scratch;
  };

  // A preliminary figure: the final one less a correction of 2–8 % (at least one micro-dollar).
  const preliminary = (amounts: Float64Array, h: number): Float64Array => {
    if (!meter.restated) return amounts;
    for (let c = 0; c < k; c++) {
      const x = amounts[c]!;
      if (x >= 1) amounts[c] = x - Math.max(1, Math.round(x * (0.02 + 0.06 * hashUnit(meter.salt, (h / HOUR) * 8 + c))));
    }
    return amounts;
  };

  const buildPrefix = (): Float64Array => {
    const p = new Float64Array((spanDays + 1) * k);
    const firstDay = Math.max(0, Math.floor((meter.from - spanStart) / DAY));
    const lastDay = Math.min(spanDays, Math.ceil((meter.to - spanStart) / DAY));
    const day = new Float64Array(k);
    for (let d = 0; d < spanDays; d++) {
      day.fill(0);
      if (d >= firstDay && d < lastDay) {
        const start = Math.max(spanStart + d * DAY, meter.from);
        const end = Math.min(spanStart + (d + 1) * DAY, meter.to);
        for (let h = start; h < end; h += HOUR) {
          const a = hour(h, h + HOUR);
          for (let c = 0; c < k; c++) day[c]! += a[c]!;
        }
      }
      for (let c = 0; c < k; c++) p[(d + 1) * k + c] = p[d * k + c]! + day[c]!;
    }
    return p;
  };

  const addHours = (from: number, to: number, out: Float64Array, offset: number) => {
    for (let h = from; h < to; h += HOUR) {
      const a = hour(h, h + HOUR);
      for (let c = 0; c < k; c++) out[offset + c]! += a[c]!;
    }
  };

  /** Final amounts of [a, b): whole days from the prefix, the ragged ends hour by hour. */
  const addFinal = (a: number, b: number, out: Float64Array, offset: number) => {
    const firstFull = ceilTo(a, DAY);
    const lastFull = floorTo(b, DAY);
    if (lastFull <= firstFull) return addHours(a, b, out, offset);
    addHours(a, firstFull, out, offset);
    prefix ??= buildPrefix();
    const d0 = (firstFull - spanStart) / DAY;
    const d1 = (lastFull - spanStart) / DAY;
    for (let c = 0; c < k; c++) out[offset + c]! += prefix[d1 * k + c]! - prefix[d0 * k + c]!;
    addHours(lastFull, b, out, offset);
  };

  return {
    meter,
    k,
    invalidate: () => {
      prefix = null;
    },
    add(a, b, now, out, offset) {
      const lo = Math.max(a, meter.from, spanStart);
      const hi = Math.min(b, meter.to, spanStart + spanDays * DAY);
      if (hi <= lo) return;
      const open = floorTo(now, HOUR);
      const recent = open - HOUR; // closed less than an hour ago: not final yet
      if (Math.min(hi, recent) > lo) addFinal(lo, Math.min(hi, recent), out, offset);
      if (recent >= lo && recent < hi) {
        const x = preliminary(hour(recent, recent + HOUR), recent);
        for (let c = 0; c < k; c++) out[offset + c]! += x[c]!;
      }
      if (open >= lo && open < hi) {
        const x = preliminary(hour(open, floorTo(now, ROLLUP_MS)), open);
        for (let c = 0; c < k; c++) out[offset + c]! += x[c]!;
      }
    },
  };
}
