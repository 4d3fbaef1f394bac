// Opening the DuckDB file: the write lock, UTC on every connection, migrations and views when writing, and small
// helpers that read results exactly (DECIMAL as strings – STYLE.md §5).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBConnection, DuckDBInstance } from '../util/duckdb-api.ts';
import type { Params, Row, Store } from './store.ts';
import { DatabaseDamagedError, DatabaseLockedError, isDamagedDatabase, StoreError } from '../util/errors.ts';
import { acquireWriteLock, describeHolder, lockPathFor, readLock, type WriteLock } from './lock.ts';
import { migrate } from './migrate.ts';
import { readerTempDirectory } from './reader-temp.ts';
import { applyViews } from '../transform/views.ts';

export type { Params, Row, Store } from './store.ts';

export interface OpenOptions {
  path: string;
  readOnly?: boolean;
  /** Who is writing, for the lock file (e.g. "sync"). */
  command?: string;
  /** Wait for another writer instead of failing at once. */
  waitMs?: number;
  /** Apply sql/views on open (default true when writing). */
  applyViews?: boolean;
  /** The caller already holds the gpuledger write lock for this file (shared-database.ts). */
  lockHeld?: boolean;
  /**
   * Run after the migrations and before the views, when writing: where a caller brings data of its own into the
   * database (the config's allocation rules, src/allocation/load-rules.ts). The store knows nothing of what.
   */
  prepare?: (store: Store) => Promise<void>;
}

/** DuckDB's own lock error, e.g. "Could not set lock on file … Conflicting lock is held in … (PID 123)". */
function isDuckDbLockError(e: unknown): boolean {
  return e instanceof Error && /Could not set lock on file/i.test(e.message);
}

export async function openStore(options: OpenOptions): Promise<Store> {
  const readOnly = options.readOnly ?? false;
  let lock: WriteLock | undefined;
  if (!readOnly) mkdirSync(dirname(options.path), { recursive: true });
  if (!readOnly && !options.lockHeld) {
    lock = await acquireWriteLock(options.path, { command: options.command ?? 'gpuledger', waitMs: options.waitMs });
  }
  let instance: DuckDBInstance;
  try {
    // a reader spills into a folder of its own, not `<db>.tmp`: reading needs no write access beside the file
    instance = await DuckDBInstance.create(options.path, readOnly ? { access_mode: 'READ_ONLY', temp_directory: readerTempDirectory() } : {});
  } catch (e) {
    lock?.release();
    if (isDuckDbLockError(e)) {
      const holder = readLock(lockPathFor(options.path));
      throw new DatabaseLockedError(describeHolder(options.path, holder), { cause: e });
    }
    if (isDamagedDatabase(e)) throw new DatabaseDamagedError(options.path, e);
    const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new StoreError(`cannot open database ${options.path}: ${msg}`, { cause: e });
  }
  const connection = await instance.connect();
  const store = createStore(options.path, readOnly, instance, connection, lock);
  try {
    // every timestamp inside gpuledger is UTC; a time zone appears only where a person reads a date (STYLE.md §7)
    await store.run("SET TimeZone = 'UTC'");
    if (!readOnly) {
      await migrate(store);
      if (options.prepare) await options.prepare(store);
      if (options.applyViews ?? true) await applyViews(store);
    }
  } catch (e) {
    await store.close().catch(() => undefined); // closing a damaged file can fail too; the first error is the one to tell
    throw isDamagedDatabase(e) ? new DatabaseDamagedError(options.path, e) : e;
  }
  return store;
}

function createStore(
  path: string,
  readOnly: boolean,
  instance: DuckDBInstance,
  connection: DuckDBConnection,
  lock: WriteLock | undefined,
): Store {
  let inTransaction = false;
  let closed = false;
  const inFlight = trackStatements(connection);
  const store: Store = {
    path,
    readOnly,
    connection,
    async all<T extends Row>(sql: string, params?: Params) {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJson() as T[];
    },
    async one<T extends Row>(sql: string, params?: Params) {
      const rows = (await connection.runAndReadAll(sql, params)).getRowObjectsJson();
      return rows[0] as T | undefined;
    },
    async run(sql: string, params?: Params) {
      await connection.run(sql, params);
    },
    async transaction<T>(fn: () => Promise<T>) {
      if (inTransaction) return fn(); // nested: part of the outer transaction
      await connection.run('BEGIN TRANSACTION');
      inTransaction = true;
      try {
        const result = await fn();
        await connection.run('COMMIT');
        return result;
      } catch (e) {
        try {
          await connection.run('ROLLBACK');
        } catch {
          /* the transaction may already be aborted */
        }
        throw e;
      } finally {
        inTransaction = false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        // closing frees the database under a statement still running on DuckDB's threads: a hang, a segfault or
        // `bad_weak_ptr` (a caller that returned a store's promise without awaiting it, then closed the store)
        await inFlight.settled();
        connection.closeSync();
        instance.closeSync();
      } finally {
        lock?.release();
      }
    },
  };
  return store;
}

/** Open, run fn, close – also on error. */
export async function withStore<T>(options: OpenOptions, fn: (store: Store) => Promise<T>): Promise<T> {
  return closingAfter(await openStore(options), fn);
}

/** Runs fn on an open store, then closes it – also on error. */
export async function closingAfter<T>(store: Store, fn: (store: Store) => Promise<T>): Promise<T> {
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/**
 * Every statement started on the connection – through the store or on `store.connection` itself – until it settles,
 * so that closing waits for them. The connection's own methods are shadowed on the object, each calling the class's
 * method of the moment (a benchmark that wraps the class's methods still sees every statement).
 */
function trackStatements(connection: DuckDBConnection): { settled(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const proto = DuckDBConnection.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['run', 'runAndRead', 'runAndReadAll', 'runAndReadUntil', 'stream', 'streamAndRead', 'streamAndReadAll', 'streamAndReadUntil', 'start', 'startStream', 'prepare', 'extractStatements', 'createAppender'] as const) {
    if (typeof proto[name] !== 'function') continue;
    Object.defineProperty(connection, name, {
      configurable: true,
      value: function (this: DuckDBConnection, ...args: unknown[]) {
        const result = proto[name]!.apply(this, args);
        if (result instanceof Promise) {
          const settled: Promise<unknown> = result.then(
            () => running.delete(settled),
            () => running.delete(settled),
          );
          running.add(settled);
        }
        return result;
      },
    });
  }
  return {
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
