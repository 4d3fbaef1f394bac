// The time bound of one answer (the SQL page's and every other page's): when it passes, the store's statement is
// interrupted – DuckDB runs it on its own threads, so the event loop is free to answer other pages meanwhile, and the
// interrupt ends it where it is. A page runs several statements and cleans up after itself (the report clock's
// variables, an as-of shadow), so `repeatMs` interrupts again until the answer gives up: an interrupt between two
// statements would otherwise be forgotten when the next one starts.
import type { Store } from '../store/database.ts';

export class Deadline {
  /** The store to interrupt, once open; undefined again when its work is over (a closed one is never touched). */
  store: Store | undefined;
  expired = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private repeat: NodeJS.Timeout | undefined;
  /** `ms` undefined: no limit (setTimeout would take Infinity as 1 ms). */
  constructor(ms: number | undefined, onExpire: () => void = () => undefined, options: { repeatMs?: number } = {}) {
    if (ms === undefined) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.store?.connection.interrupt();
      if (options.repeatMs !== undefined) this.repeat = setInterval(() => this.store?.connection.interrupt(), options.repeatMs);
      onExpire();
    }, ms);
  }
  clear(): void {
    clearTimeout(this.timer);
    clearInterval(this.repeat);
    this.store = undefined;
  }
}
