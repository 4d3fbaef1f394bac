// The database half of a sync as a lingering, batching writer. Pages are queued as they arrive (their records wait
// in spool files); a writing session opens once enough is waiting – a full request's worth of records, a page that
// has waited `maxDelayMs`, or work that must run now (the account's inventory, the end of the sync) – and stays open
// while more keeps coming, closing after a quiet spell. Measured (bench:sync, lock share): opening and closing a
// session (migrations check, views, checkpoint) costs about as much as loading a full page, so a sync throttled to a
// request every few seconds that opened one per page held the writer file 90 % of its time; batched, it opens a few.
// A sync without a quota keeps one session and loads page N (on DuckDB's own threads) while page N+1 is fetched.
import type { Store } from '../store/database.ts';
import type { WriteSessions } from '../store/shared-database.ts';

/** Time this process's loaders held an open session waiting for more pages (ms), for bench:sync: the writer held, less this, is database work. */
export const loaderIdle = { ms: 0 };

export interface Queued<T> {
  /** Resolves when the work is queued: the caller may fetch the next page. */
  queued: Promise<void>;
  /** The work's own result (or failure, including a session that could not open). */
  done: Promise<T>;
}

export interface PageLoaderOptions {
  sessions: WriteSessions;
  /** A session opens once this many records wait (default: one request's worth, sync.maxRecordsPerRequest). */
  batchRecords?: number;
  /** … or once the oldest waiting page has waited this long (default 30 s: readers see progress). */
  maxDelayMs?: number;
  /** How long an open session waits for more work: at least this, and at least what opening the last one cost. */
  lingerMs?: number;
  /** At most this many pages wait (their records are on disk; this bounds the spool, default 16). */
  maxQueued?: number;
}

export interface PageLoader {
  /** Queue work; `records` weighs a page toward the batch, `now` opens a session at once. */
  queue<T>(work: (store: Store) => Promise<T>, options?: { records?: number; now?: boolean }): Queued<T>;
  /**
   * Run everything queued, then close the session. `last`, if given, runs after everything else in the same session
   * – the one still open if one lingers – and that session publishes; its result comes once the publish is done. So
   * a sync's final note and publish cost no writing session of their own (each costs an open, views check and
   * checkpoint), and the file is still held only while something is written.
   */
  close(): Promise<void>;
  close<T>(last: (store: Store) => Promise<T>): Promise<T>;
}

interface Job {
  run(store: Store): Promise<void>;
  fail(e: unknown): void;
  records: number;
}

export function createPageLoader(options: PageLoaderOptions): PageLoader {
  const batchRecords = options.batchRecords ?? 50_000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const minLingerMs = options.lingerMs ?? 1000;
  const maxQueued = options.maxQueued ?? 16;
  const jobs: Job[] = [];
  const room: Array<() => void> = [];
  let waiting = 0;
  let session: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let delay: ReturnType<typeof setTimeout> | undefined;
  let closing = false;
  let openCostMs = 0;
  /** The work that ends the last session, and whether the open session ran it (so it publishes). */
  let last: ((store: Store) => Promise<void>) | undefined;
  let publishing = false;
  let lastFailed: ((e: unknown) => void) | undefined;

  const next = (): Job | undefined => {
    const job = jobs.shift();
    if (job) {
      waiting -= job.records;
      room.shift()?.();
    }
    return job;
  };

  const start = () => {
    clearTimeout(delay);
    delay = undefined;
    const asked = Date.now();
    publishing = false;
    session = options.sessions
      .write(async (store) => {
        openCostMs = Date.now() - asked;
        for (;;) {
          const job = next();
          if (job) {
            await job.run(store);
            continue;
          }
          if (closing) {
            if (last) {
              const work = last;
              last = undefined;
              publishing = true;
              // a failure ends the session as withWriter ends any (published, or abandoned if the file is damaged), and close() throws it
              await work(store);
            }
            return;
          }
          const idleFrom = performance.now();
          const arrived = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), Math.max(minLingerMs, openCostMs));
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          wake = undefined;
          loaderIdle.ms += performance.now() - idleFrom;
          if (!arrived && jobs.length === 0) return;
        }
      }, { publish: () => publishing })
      .catch((e: unknown) => {
        // the session could not open (or close): what waited for it fails with that reason
        for (let job = next(); job; job = next()) job.fail(e);
        // the last work waited for this session, or ran in it and the publish after it failed
        if (last || publishing) lastFailed?.(e);
        last = undefined;
      })
      .finally(() => {
        session = undefined;
        if (jobs.length > 0) consider(false);
      });
  };

  /** Open a session for what waits, if it is worth one now; otherwise make sure the oldest page waits no longer than maxDelayMs. */
  const consider = (now: boolean) => {
    if (session) {
      wake?.();
      return;
    }
    if (now || closing || waiting >= batchRecords || jobs.length >= maxQueued) start();
    else delay ??= setTimeout(start, maxDelayMs);
  };

  return {
    queue<T>(work: (store: Store) => Promise<T>, o: { records?: number; now?: boolean } = {}): Queued<T> {
      let settle!: { resolve: (v: T) => void; reject: (e: unknown) => void };
      const done = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
      const job: Job = { run: (store) => work(store).then(settle.resolve, settle.reject), fail: settle.reject, records: o.records ?? 0 };
      const queued = (async () => {
        while (jobs.length >= maxQueued) await new Promise<void>((r) => room.push(r));
        jobs.push(job);
        waiting += job.records;
        consider(o.now ?? false);
      })();
      return { queued, done };
    },
    async close<T>(work?: (store: Store) => Promise<T>): Promise<T | void> {
      closing = true;
      let outcome: { value: T } | undefined;
      let failure: { error: unknown } | undefined;
      if (work) {
        last = async (store) => {
          outcome = { value: await work(store) };
        };
        lastFailed = (e) => (failure ??= { error: e });
      }
      try {
        while (session || jobs.length > 0 || last) {
          if (session) {
            wake?.();
            await session;
          } else start();
        }
      } finally {
        clearTimeout(delay);
        delay = undefined;
        closing = false;
        last = undefined;
        lastFailed = undefined;
      }
      if (failure) throw failure.error;
      return outcome?.value;
    },
  };
}
