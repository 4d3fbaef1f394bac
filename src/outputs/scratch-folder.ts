// Private scratch space (the sync spool, metrics staging): a new folder under the system temp folder that only this
// run uses. mkdtemp creates it exclusively with a random suffix, so it can be no existing file – the store's
// included – and removing it removes only what this run put there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ScratchFolder {
  path: string;
  /** Remove the folder and everything in it. */
  remove(): void;
}

export function createScratchFolder(prefix: string): ScratchFolder {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
