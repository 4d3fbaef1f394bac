// Exports appear whole or not at all: they are written beside the target under a temporary name and renamed into
// place. A directory that already exists is swapped out (rename, rename, remove the old one).
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** A temporary path in the target's own directory (same file system, so rename is atomic). */
export function temporaryPathFor(target: string): string {
  const abs = resolve(target);
  mkdirSync(dirname(abs), { recursive: true });
  return join(dirname(abs), `.${basename(abs)}.tmp-${process.pid}-${Date.now()}`);
}

/** Move a finished temporary file or directory onto the target, replacing what was there. */
export function replaceWith(temporary: string, target: string): void {
  const abs = resolve(target);
  if (!existsSync(abs)) {
    renameSync(temporary, abs);
    return;
  }
  // a file is replaced by rename(2) in one step; a directory cannot be, so the old one moves aside first
  try {
    renameSync(temporary, abs);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EISDIR') throw e;
  }
  const old = `${temporary}.old`;
  renameSync(abs, old);
  renameSync(temporary, abs);
  rmSync(old, { recursive: true, force: true });
}

export function discard(temporary: string): void {
  rmSync(temporary, { recursive: true, force: true });
}

/** A path as a SQL string literal (COPY … TO takes no parameters). */
export function sqlPath(path: string): string {
  return `'${path.replace(/'/g, "''")}'`;
}
