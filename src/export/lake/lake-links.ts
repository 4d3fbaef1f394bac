// A lake export writes and deletes only inside the lake (issue 26 §6). A symbolic link planted in the lake – a
// partition folder replaced by a link to somewhere else, a linked data.parquet or manifest – would carry a write, a
// rename or a delete to wherever it points; so before anything is written, every path of the lake's own layout and
// every path the plan writes or deletes is walked from the lake folder down with lstat, and a link on the way is
// refused (exit 2), naming it. Refusing is clearer than replacing it: the link is someone's, and they decide.
import { lstatSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isTemporaryName } from '../../outputs/atomic-file.ts';
import { OutputRefusedError } from '../../outputs/output-guard.ts';
import { LAKE_TABLES, MANIFEST_NAME } from './lake-layout.ts';

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false; // not there: nothing to follow
  }
}

function names(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
}

/** The first link among the lake's own entries: the manifest, the table folders, the partition folders and files. */
export function findLinkInLake(lake: string): string | undefined {
  const walk = (folder: string, depth: number): string | undefined => {
    for (const name of names(folder)) {
      const ours = depth < 3 ? /^(account|family|month)=/.test(name) : name === 'data.parquet' || isTemporaryName(name);
      if (!ours) continue; // someone else's file in the lake is left alone, and so never followed
      const path = join(folder, name);
      if (isLink(path)) return path;
      if (depth < 3) {
        const found = walk(path, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  };
  for (const name of [MANIFEST_NAME, ...LAKE_TABLES]) if (isLink(join(lake, name))) return join(lake, name);
  for (const table of LAKE_TABLES) {
    const found = walk(join(lake, table), 0);
    if (found) return found;
  }
  return undefined;
}

/** The first link on the way from the lake folder to `relative` (a folder on the way, or the path itself). */
export function linkOnPath(lake: string, relative: string): string | undefined {
  let at = lake;
  for (const part of relative.split(sep)) {
    at = join(at, part);
    if (isLink(at)) return at;
  }
  return undefined;
}

/** Refuse the export when the lake holds a link where it writes or deletes (`relatives`, or anywhere of its own). */
export function refuseLinksInLake(lake: string, flag: string, relatives: readonly string[] = []): void {
  const link = findLinkInLake(lake) ?? relatives.map((r) => linkOnPath(lake, r)).find((l) => l !== undefined);
  if (link === undefined) return;
  throw new OutputRefusedError(
    `${flag} ${lake}: ${link} is a symbolic link, and a lake export writes and deletes only inside the lake; replace it with a real folder or file (or remove it) and export again – nothing was written`,
  );
}
