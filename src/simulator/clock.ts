// The simulated clock. Given a `now`, it stands still there (tests move it explicitly); without one it runs with
// the wall clock from the moment the simulator started. Rate limits never read it: clients really wait.

export interface SimClock {
  now(): number;
  /** Moves the clock to t and fixes it there. */
  setNow(t: number): void;
  /** Moves the clock forward by ms (a running clock keeps running). */
  advance(ms: number): void;
}

export function createSimClock(initial: number, fixed: boolean, wall: () => number = Date.now): SimClock {
  let base = initial;
  let running = !fixed;
  const wallAtBase = wall();
  return {
    now: () => (running ? base + (wall() - wallAtBase) : base),
    setNow(t) {
      base = t;
      running = false;
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`advance needs a finite number of milliseconds, got ${ms}`);
      base += ms;
    },
  };
}
