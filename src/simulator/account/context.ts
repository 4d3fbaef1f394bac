// What every generator of the synthetic account shares: the sequence PRNG, unique ids, and the anchor times.
import { createRng, type Rng } from '../prng.ts';
import { DAY, MINUTE, floorTo } from '../time.ts';

export interface GenContext {
  rng: Rng;
  seed: number;
  /** Initial now (ms). */
  t0: number;
  /** Start of the initial now's UTC day. */
  d0: number;
  historyStart: number;
  horizonEnd: number;
  /** A fresh id that no other resource has. */
  newId(length: number): string;
  /** A creation time: mostly before t0 and skewed towards it (the account grows), sometimes after it. */
  creationTime(futureShare: number): number;
}

export const DATA_CENTERS = ['US-TX-3', 'US-CA-2', 'US-GA-1', 'EU-RO-1', 'EU-SE-1', 'CA-MTL-1'] as const;

export function createGenContext(seed: number, t0: number, days: number): GenContext {
  const rng = createRng(seed);
  const d0 = floorTo(t0, DAY);
  const historyStart = d0 - days * DAY;
  const horizonEnd = d0 + 91 * DAY;
  const ids = new Set<string>();
  return {
    rng,
    seed,
    t0,
    d0,
    historyStart,
    horizonEnd,
    newId(length) {
      for (;;) {
        const id = rng.id(length);
        // ids start with a letter, as the platform's do
        if (/^[a-z]/.test(id) && !ids.has(id)) {
          ids.add(id);
          return id;
        }
      }
    },
    creationTime(futureShare) {
      if (rng.chance(futureShare)) return floorTo(t0 + rng.between(1, 80) * DAY, MINUTE);
      // u^0.6 puts more creations near t0: a growing account
      return floorTo(historyStart + (t0 - historyStart) * rng.next() ** 0.6, MINUTE);
    },
  };
}
