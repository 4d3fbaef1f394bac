// One writer per database file. DuckDB enforces it with an OS lock and a raw error; gpuledger holds its own lock
// file beside the database first, so a second writer is told who holds it and what to do. A lock whose process is
// gone is stale and taken over.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseLockedError } from '../util/errors.ts';

export interface LockInfo {
  pid: number;
  command: string;
  startedAt: string;
}

export interface WriteLock {
  path: string;
  release(): void;
}

export interface AcquireOptions {
  /** What holds the lock, shown to the process that is refused (e.g. "sync"). */
  command: string;
  /** Wait up to this many ms for the holder to finish instead of failing at once. */
  waitMs?: number;
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

export function describeHolder(dbPath: string, holder: LockInfo | undefined): string {
  const shown = relative(process.cwd(), dbPath) || dbPath;
  const who = holder ? `pid ${holder.pid}, ${holder.command} since ${holder.startedAt}` : 'unknown pid';
  return `another gpuledger process (${who}) is writing ${shown}; try again later or pass --wait`;
}

export async function acquireWriteLock(dbPath: string, options: AcquireOptions): Promise<WriteLock> {
  const lockPath = lockPathFor(dbPath);
  mkdirSync(dirname(lockPath), { recursive: true });
  const info: LockInfo = { pid: process.pid, command: options.command, startedAt: new Date().toISOString() };
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    if (tryCreate(lockPath, info)) break;
    const holder = readLock(lockPath);
    if (holder && holder.pid === process.pid) break; // re-entrant within one process
    if (!holder || !isAlive(holder.pid)) {
      // stale: its process died (e.g. SIGKILL) without releasing; remove and race for it again
      try {
        unlinkSync(lockPath);
      } catch {
        /* another process removed it first */
      }
      continue;
    }
    if (Date.now() >= deadline) throw new DatabaseLockedError(describeHolder(dbPath, holder), { context: { holder } });
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
  return { path: lockPath, release };
}
