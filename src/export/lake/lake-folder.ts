// Which lake folder an export may work in, and tidying it. A lake export owns only what an earlier one wrote (issue
// 18 §1): a new or empty folder becomes a lake; a folder with our manifest is one; anything else – a home folder, a
// project, a lake of another tool – is refused, naming the first entry that is not ours. Inside a lake, the files
// the manifest lists and our own temporary files are ours; whatever else someone put there is left alone.
import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OutputRefusedError } from '../../outputs/output-guard.ts';
import { isTemporaryName } from '../../outputs/atomic-file.ts';
import { LAKE_TABLES, MANIFEST_NAME } from './lake-layout.ts';
import { readManifest, type LakeManifest } from './lake-manifest.ts';

function entries(path: string): string[] {
  try {
    return readdirSync(path).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/**
 * The lake's current manifest, or undefined for a new lake (a missing or empty folder). Nothing is written: the
 * refusal comes before the database is opened. `flag` and `shown` name the folder as the user gave it.
 */
export function inspectLakeFolder(lake: string, flag: string, shown: string): LakeManifest | undefined {
  const read = readManifest(lake);
  if (read.status === 'ok') return read.manifest;
  if (read.status === 'unreadable') {
    throw new OutputRefusedError(`${flag} ${shown} has a ${MANIFEST_NAME} gpuledger cannot read (${read.reason}); move the folder aside or pick another one`);
  }
  const foreign = entries(lake)[0];
  if (foreign !== undefined) {
    throw new OutputRefusedError(`${flag} ${shown} is not a gpuledger lake (no ${MANIFEST_NAME}) and holds '${foreign}'; pick an empty or new folder`);
  }
  return undefined;
}

/** Temporary files an interrupted export left in the lake's own folders (the root and the partition folders). */
export function removeLeftovers(lake: string): number {
  let removed = 0;
  const sweep = (folder: string, depth: number) => {
    for (const name of entries(folder)) {
      const path = join(folder, name);
      if (isTemporaryName(name)) {
        rmSync(path, { force: true });
        removed++;
      } else if (depth > 0 && /^(account|family|month)=/.test(name)) sweep(path, depth - 1);
    }
  };
  sweep(lake, 0);
  for (const table of LAKE_TABLES) sweep(join(lake, table), 3);
  return removed;
}

/** Remove one of the lake's files and the partition folders it leaves empty (never a folder holding anything else). */
export function removeLakeFile(lake: string, relative: string): void {
  rmSync(join(lake, relative), { force: true });
  for (let folder = dirname(join(lake, relative)); folder !== lake && folder.startsWith(lake); folder = dirname(folder)) {
    try {
      rmdirSync(folder);
    } catch {
      return; // not empty (a foreign file stays, and so does its folder) or already gone
    }
  }
}
