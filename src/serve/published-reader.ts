// The published database as `serve` reads it: read-only stores kept open while the published file stays the same,
// reopened after a publish – a publish renames a new file over `<db>`, so its identity (inode, size, modification
// time) changes, and an old store keeps reading the old inode until it is closed. Nothing here can hold up a writer:
// writers work on their own copy and never open `<db>` itself.
//
// One request at a time per store (the report clock and an as-of shadow are session state of its connection), and
// up to READERS_AT_ONCE stores, so a slow page never makes another page wait its turn (issue 37: one /drill held
// every page for 30–60 s). Each store has its own DuckDB instance with a memory limit (it spills beyond it into the
// reader's temp folder), its statements run on DuckDB's threads, off the event loop, and each use has a time
// limit: when it passes the statement is interrupted (deadline.ts), the page answers 408, and the store – whose
// session state the page may not have put back – is closed rather than handed to the next request.
import { statSync } from 'node:fs';
import { answerWithRules } from '../allocation/reader-rules.ts';
import type { AllocationConfig } from '../config/allocation.ts';
import type { BudgetRule } from '../config/alerts.ts';
import { answerWithBudgets } from '../alert/load-budgets.ts';
import { openForReading as openReader } from '../query/open-database.ts';
import type { Store } from '../store/database.ts';
import { VARCHAR } from '../util/duckdb-api.ts';
import { Deadline } from './deadline.ts';
import { PageError } from './pages.ts';

/** Stores open at once, each answering one request at a time. */
export const READERS_AT_ONCE = 3;
/** The longest a page (its database work and its drawing) may take before it is stopped. */
export const PAGE_TIME_LIMIT_MS = 60_000;
/** DuckDB memory per page store; past it DuckDB spills into the reader's temp folder (store/reader-temp.ts). */
export const PAGE_MEMORY_LIMIT = '512MB';

export interface PublishedReader {
  /** Runs fn on a store of the file published now, alone on it, within the time limit (unless timeLimit is false). */
  use<T>(fn: (store: Store, identity: string) => Promise<T>, options?: { timeLimit?: boolean }): Promise<T>;
  /** The published file's identity now ('' when there is none). */
  identity(): string;
  close(): Promise<void>;
}

export interface ReaderLimits {
  /** Stores open at once (default READERS_AT_ONCE). */
  stores?: number;
  /** Per use (default PAGE_TIME_LIMIT_MS). */
  timeLimitMs?: number;
  /** DuckDB's memory_limit per store (default PAGE_MEMORY_LIMIT). */
  memoryLimit?: string;
}

export function fileIdentity(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return '';
  }
}

/** The one line a page stopped by its time limit answers. */
export function pageTimedOut(limitMs: number): PageError {
  return new PageError(408, `the page took longer than ${limitMs / 1000} s and was stopped; ask for less (a shorter period, a coarser granularity, fewer groupings)`);
}

interface Open {
  store: Store;
  identity: string;
  undo: () => Promise<void>;
}

/** `budgets`: the config's, which rpt_budgets answers with (load-budgets.ts); left out, the stored ones. */
export function publishedReader(dbPath: string, allocation: AllocationConfig, limits: ReaderLimits = {}, budgets?: readonly BudgetRule[]): PublishedReader {
  const size = Math.max(1, limits.stores ?? READERS_AT_ONCE);
  const timeLimitMs = limits.timeLimitMs ?? PAGE_TIME_LIMIT_MS;
  const idle: Open[] = [];
  /** Stores in use or being opened. */
  let taken = 0;
  const waiting: Array<() => void> = [];
  const closing = new Set<Promise<void>>();
  const running = new Set<Promise<unknown>>();
  let closed = false;

  const discard = (o: Open) => {
    const done = (async () => {
      await o.undo().catch(() => undefined);
      await o.store.close().catch(() => undefined);
    })();
    closing.add(done);
    void done.finally(() => closing.delete(done));
  };
  const wake = () => waiting.shift()?.();

  const open = async (identity: string): Promise<Open> => {
    const store = await openReader(dbPath); // a missing file: DatabaseMissingError, said to the user
    try {
      await store.connection.run('set memory_limit = $1', [limits.memoryLimit ?? PAGE_MEMORY_LIMIT], [VARCHAR]);
      const undoRules = await answerWithRules(store, allocation);
      const undoBudgets = budgets === undefined ? async () => {} : await answerWithBudgets(store, budgets);
      return { store, identity, undo: async () => (await undoBudgets(), await undoRules()) };
    } catch (e) {
      await store.close().catch(() => undefined);
      throw e;
    }
  };

  const acquire = async (): Promise<Open> => {
    for (;;) {
      const identity = fileIdentity(dbPath);
      for (let o = idle.pop(); o; o = idle.pop()) {
        if (o.identity === identity) return (taken++, o);
        discard(o); // a store of a file published before: the new file is read from now on
      }
      if (taken < size) {
        taken++;
        try {
          return await open(identity);
        } catch (e) {
          taken--;
          wake();
          throw e;
        }
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };

  const release = (o: Open, reusable: boolean) => {
    taken--;
    if (reusable && !closed && o.identity === fileIdentity(dbPath)) idle.push(o);
    else discard(o);
    wake();
  };

  /** One use: a store to itself, the time limit, and the store closed instead of kept when the limit passed. */
  async function bounded<T>(fn: (store: Store, identity: string) => Promise<T>, limited: boolean): Promise<T> {
    const o = await acquire();
    const deadline = new Deadline(limited ? timeLimitMs : undefined, undefined, { repeatMs: 50 });
    deadline.store = o.store;
    try {
      const answer = await fn(o.store, o.identity);
      if (deadline.expired) throw pageTimedOut(timeLimitMs); // the limit passed in its drawing: not answered late
      return answer;
    } catch (error) {
      throw deadline.expired ? pageTimedOut(timeLimitMs) : error;
    } finally {
      deadline.clear();
      release(o, !deadline.expired);
    }
  }

  return {
    use<T>(fn: (store: Store, identity: string) => Promise<T>, options: { timeLimit?: boolean } = {}): Promise<T> {
      const run = bounded(fn, options.timeLimit !== false);
      const settled: Promise<unknown> = run.then(
        () => running.delete(settled),
        () => running.delete(settled),
      );
      running.add(settled);
      return run;
    },
    identity: () => fileIdentity(dbPath),
    close: async () => {
      closed = true;
      while (running.size > 0) await Promise.all(running);
      for (let o = idle.pop(); o; o = idle.pop()) discard(o);
      while (closing.size > 0) await Promise.all(closing);
    },
  };
}

/** Answers by (published file, URL), least recently used dropped first, at most `maxBytes` in all. */
export function answerCache<V extends { body: string }>(maxBytes = 64 * 1024 * 1024) {
  const entries = new Map<string, V>();
  let bytes = 0;
  return {
    get(key: string): V | undefined {
      const answer = entries.get(key);
      if (answer) (entries.delete(key), entries.set(key, answer));
      return answer;
    },
    set(key: string, answer: V): void {
      if (maxBytes === 0 || answer.body.length > maxBytes / 4) return;
      const old = entries.get(key);
      if (old) (entries.delete(key), (bytes -= old.body.length));
      entries.set(key, answer);
      bytes += answer.body.length;
      for (const [oldestKey, old] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldestKey);
        bytes -= old.body.length;
      }
    },
  };
}
