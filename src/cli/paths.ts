// Paths given on the command line are checked before any work starts, so that a typo in --out or --db is a one-line
// usage error (exit 2) that says which flag and what is wrong with it – not a raw ENOENT after the query ran.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../util/errors.ts';

function kindOf(path: string): 'file' | 'folder' | 'other' | undefined {
  try {
    const s = statSync(path);
    return s.isDirectory() ? 'folder' : s.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

/** The nearest part of `path` that exists (the path itself, a parent, … the root). */
function nearestExisting(path: string): { at: string; kind: 'file' | 'folder' | 'other' } {
  for (let at = resolve(path); ; at = dirname(at)) {
    const kind = kindOf(at);
    if (kind !== undefined || dirname(at) === at) return { at, kind: kind ?? 'folder' };
  }
}

/** A file gpuledger writes into an existing folder (query --out): the folder must be there, the file not a folder. */
export function checkOutFile(path: string, flag: string): void {
  if (kindOf(path) === 'folder') throw new UsageError(`${flag} ${path} is a folder; pass a file name, e.g. ${resolve(path, 'result.csv')}`);
  const folder = dirname(resolve(path));
  const kind = kindOf(folder);
  if (kind === undefined) throw new UsageError(`${flag} ${path}: the folder ${folder} does not exist; create it first or pass another path`);
  if (kind !== 'folder') throw new UsageError(`${flag} ${path}: ${folder} is not a folder`);
}

/** A folder gpuledger creates if needed (report --out-dir): nothing on the way may be a file. */
export function checkCreatableFolder(path: string, flag: string): void {
  const { at, kind } = nearestExisting(path);
  if (kind !== 'folder') throw new UsageError(`${flag} ${path}: ${at} is a file, so the folder cannot be created there`);
}

/** The database file: a file, or a path whose folders can be created (a writer creates both). */
export function checkDatabasePath(path: string): void {
  const kind = kindOf(path);
  if (kind === 'folder') throw new UsageError(`database ${path} (from --db, GPULEDGER_DB or the config's database) is a folder; pass the database file, e.g. ${resolve(path, 'gpuledger.duckdb')}`);
  if (kind === 'other') throw new UsageError(`database ${path} (from --db, GPULEDGER_DB or the config's database) is not a regular file`);
  if (kind === undefined) {
    const { at, kind: parent } = nearestExisting(dirname(resolve(path)));
    if (parent !== 'folder') throw new UsageError(`database ${path} (from --db, GPULEDGER_DB or the config's database): ${at} is a file, so its folder cannot be created`);
  }
}
