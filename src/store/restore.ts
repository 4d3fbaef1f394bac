// `gpuledger store restore [--from COPY]`: bring back the newest good copy of the database (store-check.ts), or the
// one asked for (a copy beside it or a backup file anywhere), as both the writer copy and the published `<db>`. It holds the sync lock and the write lock, so no
// sync, nightly run or writing session runs meanwhile. Every copy it replaces is set aside, never deleted – damaged
// or not, someone may still want what is in it (issue 18 §2).
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { DatabaseLockedError, StoreCopiesError, UsageError } from '../util/errors.ts';
import { setAside, writerPathFor, type CopyRole } from './copies.ts';
import { acquireSyncLock, acquireWriteLock } from './lock.ts';
import { identityOf, publish } from './publish.ts';
import { checkCopy } from './copy-check.ts';
import { checkCopies, newestGood, type CopyReport } from './store-check.ts';
import { replaceWriter } from './writer-copy.ts';

export interface RestoreResult {
  /** The copy brought back. */
  from: CopyReport;
  /** Copies moved out of the way, and where to. */
  setAside: { role: CopyRole; path: string; to: string; state: CopyReport['state']; newest?: string }[];
  /** Whether `<db>` was published anew (false: it already was the copy brought back). */
  published: boolean;
  /** The newest good copy was already both the writer copy and the published one. */
  nothingToDo: boolean;
}

/** A copy by role (writer, published, previous), by the file name of a copy set aside, or a backup file anywhere. */
async function pick(reports: readonly CopyReport[], dbPath: string, from: string): Promise<CopyReport> {
  const path = resolve(from);
  let found = reports.find((r) => r.role === from) ?? reports.find((r) => [path, resolve(dirname(dbPath), from)].includes(resolve(r.path)));
  if (!found && existsSync(path) && statSync(path).isFile()) found = { role: 'backup', ...(await checkCopy(path)) };
  if (!found) {
    const aside = reports.filter((r) => r.role === 'aside').map((r) => basename(r.path));
    throw new UsageError(`--from ${from}: no such copy or file; pick writer, published, previous, a copy set aside (${aside.join(', ') || 'none yet'}) or a backup file`);
  }
  if (found.state !== 'good') throw new StoreCopiesError(`--from ${from}: ${basename(found.path)} is not a good copy (${found.problem}); gpuledger store check lists the good ones`);
  return found;
}

export async function restoreStore(dbPath: string, options: { from?: string; waitMs?: number } = {}): Promise<RestoreResult> {
  const syncLock = await acquireSyncLock(dbPath, { command: 'store restore', waitMs: options.waitMs });
  try {
    const writeLock = await acquireWriteLock(dbPath, { command: 'store restore', waitMs: options.waitMs });
    try {
      return await restoreLocked(dbPath, options.from);
    } finally {
      writeLock.release();
    }
  } finally {
    syncLock.release();
  }
}

async function restoreLocked(dbPath: string, from: string | undefined): Promise<RestoreResult> {
  const reports = await checkCopies(dbPath, { lockHeld: true });
  const busy = reports.find((r) => r.state === 'in-use');
  if (busy) throw new DatabaseLockedError(`${basename(busy.path)} is open read-write in another program; close it there (or open it read-only) and run gpuledger store restore again`);
  const chosen = from === undefined ? newestGood(reports) : await pick(reports, dbPath, from);
  if (!chosen) {
    const list = reports.map((r) => `${basename(r.path)} (${r.problem})`).join(', ');
    throw new StoreCopiesError(`no good copy of ${basename(dbPath)} to restore: ${list}; move them aside and run gpuledger sync to rebuild from the platform (data only kept locally comes back from a backup)`);
  }
  const writer = reports.find((r) => r.role === 'writer');
  const published = reports.find((r) => r.role === 'published');
  const result: RestoreResult = { from: chosen, setAside: [], published: false, nothingToDo: false };
  const moveAside = (r: CopyReport | undefined) => {
    if (!r || r === chosen || (r.role !== 'writer' && r.role !== 'published')) return;
    result.setAside.push({ role: r.role, path: r.path, to: setAside(dbPath, r.path, r.role), state: r.state, newest: r.newest });
  };

  if (chosen.role === 'writer') {
    // `<db>` holds older data than the writer copy (a backup copied over it by hand): kept aside, never rotated away
    const older = published?.state === 'good' && (published.newest ?? '') < (chosen.newest ?? '');
    // already published, unchanged since: the newest good copy is in place
    if (published?.state === 'good' && !older && published.modified.getTime() >= chosen.modified.getTime() - 1) return { ...result, nothingToDo: true };
    if (published?.state !== 'good' || older) moveAside(published);
    await publish(dbPath, writerPathFor(dbPath), { knownGood: published?.state === 'good' && !older ? identityOf(dbPath) : undefined });
    return { ...result, published: true };
  }
  moveAside(writer);
  if (chosen.role === 'published') {
    replaceWriter(dbPath, dbPath);
    return result;
  }
  // the previous generation, a copy set aside or a backup: it becomes the writer copy and is published; `<db>` is out
  // of the way first, so the publish keeps no generation of its own and `<db>.previous` stays as it is
  moveAside(published);
  replaceWriter(dbPath, chosen.path);
  await publish(dbPath, writerPathFor(dbPath));
  return { ...result, published: true };
}
