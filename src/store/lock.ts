// One writer per database file. DuckDB enforces it with an OS lock and a raw error; gpuledger holds its own lock
// file beside the database first, so a second writer is told who holds it and what to do. A lock is stale, and is
// taken over, when its process is gone – or when the pid now belongs to another process: after a container restart
// pid 1 is alive but is not the holder, so the lock records the host and the process's start time as well.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseLockedError } from '../util/errors.ts';

export interface LockInfo {
  pid: number;
  command: string;
  startedAt: string;
  /** The machine the holder runs on. */
  host?: string;
  /** The holder's start time as the kernel counts it (/proc/PID/stat field 22), where there is a /proc. */
  processStart?: string | null;
}

export interface WriteLock {
  path: string;
  release(): void;
  /** Whom this process waited for before it got the lock, and how long. */
  waited?: { ms: number; holder: LockInfo };
}

export interface AcquireOptions {
  /** What holds the lock, shown to the process that is refused (e.g. "sync"). */
  command: string;
  /** Wait up to this many ms for the holder to finish instead of failing at once. */
  waitMs?: number;
  /** What the lock guards, for messages: "writing data/x.duckdb" (default: writing the database). */
  guards?: string;
  /** Called once when the lock is held by another live process and this one starts waiting for it. */
  onWait?: (message: string) => void;
}

export function lockPathFor(dbPath: string): string {
  return `${dbPath}.lock`;
}

export function readLock(lockPath: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, 'utf8')) as LockInfo;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time in clock ticks since boot, or null where /proc does not tell (macOS, Windows). */
export function processStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count fields after its closing parenthesis
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote the lock is still the one running under its pid on this machine. */
export function isHolderAlive(holder: LockInfo): boolean {
  if (holder.host !== undefined && holder.host !== hostname()) return false;
  if (!isAlive(holder.pid)) return false;
  if (holder.processStart) {
    const now = processStartOf(holder.pid);
    if (now !== null && now !== holder.processStart) return false; // the pid was reused
  }
  return true;
}

function tryCreate(lockPath: string, info: LockInfo): boolean {
  try {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, JSON.stringify(info));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** "another gpuledger process (pid 12, sync since …) is writing data/x.duckdb; …" with the advice that fits. */
export function describeHolder(dbPath: string, holder: LockInfo | undefined, waitedMs = 0, guards?: string): string {
  const shown = relative(process.cwd(), dbPath) || dbPath;
  const who = holder ? `pid ${holder.pid}, ${holder.command} since ${holder.startedAt}` : 'unknown pid';
  const what = guards ?? `writing ${shown}`;
  return waitedMs > 0
    ? `another gpuledger process (${who}) was still ${what} after waiting ${Math.round(waitedMs / 1000)} s; try again later or wait longer with a larger --wait`
    : `another gpuledger process (${who}) is ${what}; try again later or pass --wait SECONDS`;
}

/** Take the lock file at `lockPath`, waiting up to waitMs for a live holder. */
export async function acquireLock(lockPath: string, subject: string, options: AcquireOptions): Promise<WriteLock> {
  mkdirSync(dirname(lockPath), { recursive: true });
  const info: LockInfo = {
    pid: process.pid,
    command: options.command,
    startedAt: new Date().toISOString(),
    host: hostname(),
    processStart: processStartOf(process.pid),
  };
  const started = Date.now();
  const deadline = started + (options.waitMs ?? 0);
  let waitedFor: LockInfo | undefined;
  for (;;) {
    if (tryCreate(lockPath, info)) break;
    const holder = readLock(lockPath);
    if (holder && holder.pid === process.pid && holder.host === info.host) break; // re-entrant within one process
    if (!holder || !isHolderAlive(holder)) {
      // stale: its process died (e.g. SIGKILL) or the pid is someone else's now; remove and race for it again
      try {
        unlinkSync(lockPath);
      } catch {
        /* another process removed it first */
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new DatabaseLockedError(describeHolder(subject, holder, options.waitMs ? Date.now() - started : 0, options.guards), { context: { holder } });
    }
    if (!waitedFor) {
      options.onWait?.(`pid ${holder.pid} (${holder.command}) is ${options.guards ?? `writing ${relative(process.cwd(), subject) || subject}`}; waiting up to ${Math.round((deadline - Date.now()) / 1000)} s`);
    }
    waitedFor = holder;
    await sleep(250);
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    const holder = readLock(lockPath);
    if (holder?.pid === process.pid) {
      try {
        unlinkSync(lockPath);
      } catch {
        /* already gone */
      }
    }
  };
  process.on('exit', release);
  const waitedMs = Date.now() - started;
  return { path: lockPath, release, ...(waitedFor && waitedMs >= 250 ? { waited: { ms: waitedMs, holder: waitedFor } } : {}) };
}

/** "waited 3 s for sync (pid 12) to finish writing data/x.duckdb" – what a --wait was spent on. */
export function describeWait(lock: WriteLock, what: string): string | undefined {
  if (!lock.waited) return undefined;
  const { ms, holder } = lock.waited;
  return `waited ${(ms / 1000).toFixed(1)} s for ${holder.command} (pid ${holder.pid}) to finish ${what}`;
}

export function syncLockPathFor(dbPath: string): string {
  return `${dbPath}.sync.lock`;
}

/** The lock one sync (or nightly run) holds for its whole length, beside the database: one sync at a time. */
export async function acquireSyncLock(dbPath: string, options: AcquireOptions): Promise<WriteLock> {
  return acquireLock(syncLockPathFor(dbPath), dbPath, { ...options, guards: options.guards ?? `syncing ${relative(process.cwd(), dbPath) || dbPath}` });
}

export async function acquireWriteLock(dbPath: string, options: AcquireOptions): Promise<WriteLock> {
  return acquireLock(lockPathFor(dbPath), dbPath, options);
}
