// Deterministic randomness for the simulator: a sequence generator (mulberry32) for building the account and
// drawing faults, and a stateless integer hash for per-hour noise, so an hour's amount never depends on the order
// in which hours are computed. Math.random is never used: same seed ⇒ same account, same bills, same faults.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number;
  /** Uniform in [lo, hi). */
  between(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An item chosen with the given relative weights. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** A lowercase alphanumeric id of the given length (platform ids look like `p7k2m9x4q1w8e3`). */
  id(length: number): string;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    between: (lo, hi) => lo + next() * (hi - lo),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted: (items) => {
      const total = items.reduce((s, [, w]) => s + w, 0);
      let x = next() * total;
      for (const [item, w] of items) {
        x -= w;
        if (x < 0) return item;
      }
      return items[items.length - 1]![0];
    },
    id: (length) => {
      let s = '';
      for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
      return s;
    },
  };
  return rng;
}

/** A well-mixed 32-bit hash of two integers (murmur3's finalizer over a combined word). */
export function hash32(a: number, b: number): number {
  let h = (Math.imul(a | 0, 0x9e3779b1) ^ (b | 0)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h ^ (b | 0), 0x27d4eb2f);
  h ^= h >>> 15;
  return h >>> 0;
}

/** hash32 as a number in [0, 1). */
export function hashUnit(a: number, b: number): number {
  return hash32(a, b) / 4294967296;
}

/** A salt for one named stream derived from the seed (so streams do not shift when another one changes). */
export function saltFor(seed: number, name: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < name.length; i++) h = hash32(h, name.charCodeAt(i));
  return h;
}
