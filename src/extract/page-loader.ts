// The database half of a sync as a lingering writer: work is queued as pages arrive, and one writing session runs it
// while more keeps coming. The session opens when work is queued and closes once nothing has been queued for
// `lingerMs` – so a sync throttled to a few requests a minute holds the writer file briefly per page, while one
// without a quota keeps a single session, loading page N (on DuckDB's own threads) while page N+1 is fetched.
// At most `maxQueued` pages wait (their records are in spool files, but a fetch far ahead of the load gains nothing).
import type { Store } from '../store/database.ts';
import type { WriteSessions } from '../store/shared-database.ts';

export interface Queued<T> {
  /** Resolves when the work is queued: the caller may fetch the next page. */
  queued: Promise<void>;
  /** The work's own result (or failure, including a session that could not open). */
  done: Promise<T>;
}

export interface PageLoader {
  queue<T>(work: (store: Store) => Promise<T>): Queued<T>;
  /** Run everything queued, then close the session (the final publishing session must not wait for it). */
  close(): Promise<void>;
}

interface Job {
  run(store: Store): Promise<void>;
  fail(e: unknown): void;
}

export function createPageLoader(options: { sessions: WriteSessions; lingerMs?: number; maxQueued?: number }): PageLoader {
  const lingerMs = options.lingerMs ?? 1000;
  const maxQueued = options.maxQueued ?? 2;
  const jobs: Job[] = [];
  const room: Array<() => void> = [];
  let session: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let closing = false;

  const next = (): Job | undefined => {
    const job = jobs.shift();
    if (job) room.shift()?.();
    return job;
  };

  const start = () => {
    session = options.sessions
      .write(async (store) => {
        for (;;) {
          const job = next();
          if (job) {
            await job.run(store);
            continue;
          }
          if (closing) return;
          const arrived = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), lingerMs);
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          wake = undefined;
          if (!arrived && jobs.length === 0) return;
        }
      }, { publish: false })
      .catch((e: unknown) => {
        // the session could not open (or close): what waited for it fails with that reason
        for (let job = next(); job; job = next()) job.fail(e);
      })
      .finally(() => {
        session = undefined;
        if (jobs.length > 0) start();
      });
  };

  return {
    queue<T>(work: (store: Store) => Promise<T>): Queued<T> {
      let settle!: { resolve: (v: T) => void; reject: (e: unknown) => void };
      const done = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
      const job: Job = {
        run: (store) => work(store).then(settle.resolve, settle.reject),
        fail: settle.reject,
      };
      const queued = (async () => {
        while (jobs.length >= maxQueued) await new Promise<void>((r) => room.push(r));
        jobs.push(job);
        if (!session) start();
        else wake?.();
      })();
      return { queued, done };
    },
    async close() {
      closing = true;
      while (session || jobs.length > 0) {
        wake?.();
        if (session) await session;
        else start();
      }
      closing = false;
    },
  };
}
