// Where the network half of a sync keeps the records it read until they are loaded: one file per page in a
// per-run temp folder, so a one-year backfill holds only each page's metadata in memory, never its records. The
// folder goes when the sync ends, failed or not.
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createScratchFolder } from '../outputs/scratch-folder.ts';

export interface Spool {
  /** Write one page's records array; resolves to its path. */
  write(records: Uint8Array): Promise<string>;
  /** The page is loaded (or given up): its file can go. */
  release(file: string): void;
  /** Remove the folder and everything left in it. */
  remove(): void;
}

export function createSpool(): Spool {
  const { path: dir } = createScratchFolder('gpuledger-spool-');
  let n = 0;
  return {
    async write(records) {
      const file = join(dir, `page-${String(++n).padStart(6, '0')}.json`);
      await writeFile(file, records);
      return file;
    },
    release: (file) => rmSync(file, { force: true }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
