// Outputs appear whole or not at all: written under a temporary name beside the target (same folder, so the rename
// is atomic) and renamed into place. The temporary name never falls under the store's names (`<db>` and `<db>.*`,
// store-files.ts), so a crash that leaves it behind leaves nothing the store, its cleanup or the sandbox would take
// for one of its own files. A folder is never replaced by a file.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { storeFileRole } from '../store/store-files.ts';
import { OutputRefusedError } from './output-guard.ts';

let sequence = 0;

/** The prefix every temporary output name carries, so an interrupted run's leftovers can be recognised. */
export const TEMPORARY_MARK = '.gpuledger-tmp-';
const FALLBACK_MARK = 'gpuledger-tmp-';

/** Whether a file name is one of our temporary outputs (an interrupted run's leftover, safe to remove). */
export function isTemporaryName(name: string): boolean {
  return name.startsWith(TEMPORARY_MARK) || name.startsWith(FALLBACK_MARK);
}

/** A fresh temporary path beside `target` that is none of the store's names (when `dbPath` is given). */
export function temporaryBeside(target: string, dbPath?: string): string {
  const dir = dirname(target);
  const name = basename(target);
  for (;;) {
    const id = `${process.pid}-${Date.now().toString(36)}-${++sequence}`;
    // two spellings that cannot both start with `<db name>.`: one starts with a dot, the other with a letter
    const candidates = [join(dir, `${TEMPORARY_MARK}${id}-${name}`), join(dir, `${FALLBACK_MARK}${id}-${name}`)];
    const free = candidates.find((c) => (dbPath === undefined || storeFileRole(c, dbPath) === undefined) && !existsSync(c));
    if (free) return free;
  }
}

/** Make a finished temporary file durable and rename it onto `target` (a crash leaves the old file or the new). */
export function moveIntoPlace(temporary: string, target: string): void {
  let isFolder = false;
  try {
    isFolder = statSync(target).isDirectory();
  } catch {
    /* not there yet */
  }
  if (isFolder) {
    rmSync(temporary, { force: true });
    throw new OutputRefusedError(`${target} became a folder while it was being written; nothing was replaced`);
  }
  const fd = openSync(temporary, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, target);
}

/** Write `text` to `target` so that readers see the old content or the new, never half: temp file, fsync, rename. */
export function writeFileAtomic(target: string, text: string, dbPath?: string): void {
  const tmp = temporaryBeside(target, dbPath);
  try {
    const fd = openSync(tmp, 'wx');
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    moveIntoPlace(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export function discard(temporary: string): void {
  rmSync(temporary, { force: true });
}
