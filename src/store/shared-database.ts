// One writer and any number of readers, and neither ever waits for the other. DuckDB lets a file be open by one
// read-write process or by several read-only ones, never both at once; so gpuledger's writers work on a private
// copy, `<db>.writer`, and publish it to `<db>` when a writing session ends: checkpoint, close, copy to a temporary
// name beside `<db>`, fsync, rename over `<db>`. Readers – `query`, `report`, `billing`, `views`, `export`, an
// analyst's DuckDB client – open `<db>` read-only and see the last published state. A rename never disturbs a reader
// that has the old file open (it keeps reading the old inode), and no writer ever opens `<db>` itself.
//
// Someone may also write `<db>` directly (an older gpuledger, a test, a restored backup). A published copy carries
// the writer file's modification time; when `<db>` is newer than `<db>.writer`, it was changed since the last
// publish, and the writer adopts it before writing – once it checks good (writer-copy.ts). Each publish keeps the
// generation before it as `<db>.previous` (publish.ts); `gpuledger store check|restore` works on these copies.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { DatabaseDamagedError, DatabaseLockedError, DiskFullError, diskFullPath, EXIT, GpuledgerError, isDamagedDatabase } from '../util/errors.ts';
import { closingAfter, openStore, type OpenOptions, type Store } from './database.ts';
import type { Logger } from '../util/log.ts';
import { listCopies, writerPathFor } from './copies.ts';
import { acquireWriteLock, describeWait } from './lock.ts';
import { refreshMaterialized } from '../transform/materialize.ts';
import { publish, sweepPublishFiles, type FileIdentity } from './publish.ts';
import { rememberWriter } from './keep-newest.ts';
import { prepareWriterCopy, recoverWriter } from './writer-copy.ts';

export { writerPathFor } from './copies.ts';
export { publish } from './publish.ts';

/** How long a writing session waits for another one by default: they are short (seconds), so a brief wait beats a refusal. */
export const SESSION_WAIT_MS = 60_000;

/** Time the writer file was held open for writing in this process, for the shared-database benchmark. */
export const writerHeld = { ms: 0, sessions: 0 };

/** Where the writing sessions of this process spent their time (ms), step by step, for bench:sync. */
export const sessionSteps = { open: 0, refresh: 0, checkpoint: 0, close: 0, publish: 0 };

async function timed<T>(step: keyof typeof sessionSteps, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    sessionSteps[step] += performance.now() - t;
  }
}

/** The database file does not exist: nothing has been synced into it yet. */
export class DatabaseMissingError extends GpuledgerError {
  constructor(path: string, detail = 'does not exist yet; run gpuledger sync first (it needs an API key), gpuledger run --demo for simulated data, or pass --db FILE') {
    super('db_missing', `database ${shown(path)} ${detail}`, EXIT.usage);
  }
}

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

export interface WriterOptions extends Omit<OpenOptions, 'path' | 'readOnly' | 'lockHeld'> {
  /** The database users read (`--db`); the writer works on its `.writer` copy. */
  dbPath: string;
  /**
   * Publish <db> when the session ends (default true; a session that only notes a run's start need not). A function
   * is asked when the session ends: a lingering session learns only while open whether it is the last one.
   */
  publish?: boolean | (() => boolean);
  /** Told whom the session waited for, if it had to, and which copy was set aside or recovered, if one was. */
  log?: Pick<Logger, 'info' | 'warn'>;
}

/**
 * Open the database for a writing session: the gpuledger write lock, the writer copy (adopting <db> if it changed),
 * migrations and views. close() checkpoints, closes and publishes, then releases the lock.
 */
export async function openWriter(options: WriterOptions): Promise<Store> {
  const { dbPath } = options;
  const writerPath = writerPathFor(dbPath);
  mkdirSync(dirname(dbPath), { recursive: true });
  const lock = await acquireWriteLock(dbPath, { command: options.command ?? 'gpuledger', waitMs: options.waitMs, onWait: (m) => options.log?.info(m) });
  const waited = describeWait(lock, `writing ${shown(dbPath)}`);
  if (waited) options.log?.info(waited);
  const opened = Date.now();
  let store: Store;
  let knownGood: FileIdentity | undefined;
  try {
    sweepPublishFiles(dbPath);
    knownGood = await prepareWriterCopy(dbPath, options.log);
    // the lock above is ours; openStore must not take it again for the writer copy's own path
    const open = () => openStore({ command: options.command, applyViews: options.applyViews, prepare: options.prepare, path: writerPath, lockHeld: true });
    try {
      store = await open();
    } catch (e) {
      if (!isDamagedDatabase(e) || !existsSync(writerPath)) throw e;
      knownGood = await recoverWriter(dbPath, e, options.log);
      store = await open();
    }
  } catch (e) {
    lock.release();
    throw e;
  }
  sessionSteps.open += Date.now() - opened;
  let closed = false;
  const publishes = () => (typeof options.publish === 'function' ? options.publish() : (options.publish ?? true));
  const end = async (publishing: boolean) => {
    if (closed) return;
    closed = true;
    try {
      if (publishing) {
        // readers of the published file read the materialised tables: they follow what this session wrote
        if ((options.applyViews ?? true) && publishes()) await timed('refresh', () => refreshMaterialized(store));
        await timed('checkpoint', () => store.run('checkpoint'));
      }
      await timed('close', () => store.close());
      if (publishing && publishes()) await timed('publish', () => publish(dbPath, writerPath, { knownGood, log: options.log }));
      rememberWriter(dbPath);
    } catch (e) {
      const full = diskFullPath(e);
      if (!full) throw e;
      // a checkpoint that found the disk full leaves the instance open: close it, so this process can write again
      await store.close().catch(() => undefined);
      throw new DiskFullError(full.path ?? writerPath, e, NO_SPACE_ADVICE);
    } finally {
      writerHeld.ms += Date.now() - opened;
      writerHeld.sessions++;
      lock.release();
    }
  };
  const session: Store = { ...store, path: dbPath, close: () => end(true) };
  abandoners.set(session, () => end(false));
  return session;
}

/** How to end a session whose writer copy turned out damaged: closed, never published over a good `<db>`. */
const abandoners = new WeakMap<Store, () => Promise<void>>();

/** What to do when the disk filled up during a session, and what became of the work. */
const NO_SPACE_ADVICE = 'nothing was published from this session (the database is as the last publish left it); free some space there and run the command again';

/** What to do about a writer copy found damaged in the middle of a session. */
const RESTORE_ADVICE = 'nothing was published from it; gpuledger store check lists the good copies and gpuledger store restore brings back the newest';

/** Run fn in one writing session; the session is published when fn succeeds and also when it fails part-way. */
export async function withWriter<T>(options: WriterOptions, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openWriter(options);
  let result: T;
  try {
    result = await fn(store);
  } catch (e) {
    const full = diskFullPath(e);
    if (full) {
      // the disk is full: ending the session normally would checkpoint and publish onto it; nothing is published
      await abandoners.get(store)?.().catch(() => undefined);
      throw e instanceof DiskFullError ? e : new DiskFullError(full.path ?? writerPathFor(options.dbPath), e, NO_SPACE_ADVICE);
    }
    if (!isDamagedDatabase(e)) {
      await store.close();
      throw e;
    }
    // a block of the writer copy failed its checksum mid-session: name that file, not <db>, and publish nothing
    await abandoners.get(store)?.().catch(() => undefined);
    throw e instanceof DatabaseDamagedError ? e : new DatabaseDamagedError(writerPathFor(options.dbPath), e, RESTORE_ADVICE);
  }
  await store.close();
  return result;
}

/** Open the published database read-only. Never waits for a writer, and never shows DuckDB's lock error. */
export async function openReader(dbPath: string): Promise<Store> {
  if (!existsSync(dbPath)) {
    if (existsSync(writerPathFor(dbPath))) throw new DatabaseMissingError(dbPath, 'has not been published yet: the first sync is still running or was interrupted; run gpuledger sync');
    throw new DatabaseMissingError(dbPath);
  }
  try {
    return await openStore({ path: dbPath, readOnly: true });
  } catch (e) {
    if (e instanceof DatabaseDamagedError && listCopies(dbPath).length > 1) {
      throw new DatabaseDamagedError(dbPath, e.cause, 'gpuledger store check tells which copy beside it is good, and gpuledger store restore puts the newest good one back');
    }
    if (e instanceof DatabaseLockedError) {
      // only a program that opened <db> itself read-write can hold it: gpuledger's writers never do
      throw new DatabaseLockedError(
        `${shown(dbPath)} is open read-write in another program; open it read-only there (duckdb -readonly, read_only=True) so gpuledger and others can read it`,
        { cause: e },
      );
    }
    throw e;
  }
}

export async function withReader<T>(dbPath: string, fn: (store: Store) => Promise<T>): Promise<T> {
  return closingAfter(await openReader(dbPath), fn);
}

/**
 * How a long job (sync, the nightly run) reaches the database: one short writing session at a time, each published
 * when it ends, so the file is held only while something is written – never while the job waits on the network.
 */
export interface SessionOptions {
  /**
   * Publish when the session ends (default true). The materialised tables are brought up to date before each
   * publish, so a session that does not publish (a sync's page batches) only marks what it changed, and the session
   * that publishes computes it once – a backfill is not computed again after every batch. A function is asked when
   * the session ends.
   */
  publish?: boolean | (() => boolean);
}

export interface WriteSessions {
  write<T>(fn: (store: Store) => Promise<T>, options?: SessionOptions): Promise<T>;
}

/** Sessions on the shared database at dbPath: each opens the writer copy, writes, publishes and lets go. */
export function writeSessions(options: WriterOptions): WriteSessions {
  return { write: (fn, o) => withWriter({ ...options, ...o }, fn) };
}

/** Sessions on a store the caller already holds open (tests, benchmarks): each is a call, then the refresh that a
 * real session does before it publishes. */
export function heldSessions(store: Store): WriteSessions {
  return {
    async write(fn, o) {
      const result = await fn(store);
      const publish = o?.publish ?? true;
      if (typeof publish === 'function' ? publish() : publish) await timed('refresh', () => refreshMaterialized(store));
      return result;
    },
  };
}
