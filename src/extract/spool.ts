// Where the network half of a sync keeps the records it read until they are loaded: one file per page in a
// per-run temp folder, so a one-year backfill holds only each page's metadata in memory, never its records. The
// folder goes when the sync ends, failed or not; the folder of a run that was killed carries its owner in its name
// (`gpuledger-spool-<pid>-<start>-…`, run-owner.ts) and goes when the next sync starts.
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchFolder } from '../outputs/scratch-folder.ts';
import { ownerTag, sweepDead } from '../store/run-owner.ts';

export interface Spool {
  /** Write one page's records array; resolves to its path. */
  write(records: Uint8Array): Promise<string>;
  /** The page is loaded (or given up): its file can go. */
  release(file: string): void;
  /** Remove the folder and everything left in it. */
  remove(): void;
}

/** A spool folder's name: its owner, then mkdtemp's random suffix. */
export const SPOOL_FOLDER = /^gpuledger-spool-(?<pid>\d+)-(?<start>\d+)-/;

export function createSpool(): Spool {
  sweepDead(tmpdir(), SPOOL_FOLDER);
  const { path: dir } = createScratchFolder(`gpuledger-spool-${ownerTag()}-`);
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
