// Paths given on the command line are checked before any work starts, so that a typo in --out or --db is a one-line
// usage error (exit 2) that says which flag and what is wrong with it – not a raw ENOENT after the query ran.
import { dirname, resolve } from 'node:path';
import { nearestExisting, pathKind as kindOf } from '../outputs/path-kind.ts';
import { UsageError } from '../util/errors.ts';

/**
 * A file gpuledger writes into an existing folder (query --out): the folder must be there. What the file may not be
 * (a folder, one of the store's files) is checkFileOutput's job (src/outputs/output-guard.ts).
 */
export function checkOutFolderExists(path: string, flag: string): void {
  const folder = dirname(resolve(path));
  const kind = kindOf(folder);
  if (kind === undefined) throw new UsageError(`${flag} ${path}: the folder ${folder} does not exist; create it first or pass another path`);
  if (kind !== 'folder') throw new UsageError(`${flag} ${path}: ${folder} is not a folder`);
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
