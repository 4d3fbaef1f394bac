// A command writes only what it made (issue 18 §1). Every output path – a flag (`query --out`, `export … --out`,
// `report --out-dir`), a path from the config (the alert file channel, outDir) – is checked here before anything is
// written: it is never one of the store's files however it is spelled (relative, `..`, symlinks, hard links:
// store-files.ts decides), an existing folder is never replaced by a file, and a folder that a command owns whole (the
// lake) is never the database's folder or one of its ancestors. Refusals are one line, exit 2, naming the flag, the
// path and what it would have hit.
import { dirname, resolve } from 'node:path';
import { canonicalPath, holdsDatabase, storeFileRole } from '../store/store-files.ts';
import { EXIT, GpuledgerError } from '../util/errors.ts';
import { nearestExisting, pathKind } from './path-kind.ts';

/** An output path refused before anything was written (a usage or configuration mistake: exit 2). */
export class OutputRefusedError extends GpuledgerError {
  constructor(message: string) {
    super('output_refused', message, EXIT.usage);
  }
}

export interface OutputTarget {
  /** How the user named the path, for the message: `--out`, `--out-dir`, `config alerts.channels[1].path`. */
  flag: string;
  /** The path as given (relative paths resolve against the working folder). */
  path: string;
  /** The database the store's files belong to: the resolved settings' dbPath. */
  dbPath: string;
}

function refuseStoreFile(target: OutputTarget, pick: 'file' | 'folder'): void {
  const role = storeFileRole(target.path, target.dbPath);
  if (role) throw new OutputRefusedError(`${target.flag} ${target.path} is ${role}; pick another ${pick}`);
}

/**
 * A file a command writes (replacing it whole, or appending to it). Returns the canonical path to write – the one the
 * checks were made on, so a symlink swapped afterwards cannot redirect the write.
 */
export function checkFileOutput(target: OutputTarget): string {
  const path = canonicalPath(target.path);
  const kind = pathKind(path);
  if (kind === 'folder') throw new OutputRefusedError(`${target.flag} ${target.path} is a folder; pass a file name, e.g. ${resolve(target.path, 'result.csv')}`);
  refuseStoreFile(target, 'file');
  if (kind === 'other') throw new OutputRefusedError(`${target.flag} ${target.path} is not a regular file (a device, pipe or socket); pass a file name`);
  const { at, kind: parent } = nearestExisting(dirname(path));
  if (parent !== 'folder') throw new OutputRefusedError(`${target.flag} ${target.path}: ${at} is a file, so the file cannot be created there`);
  return path;
}

export interface FolderOptions {
  /**
   * Whether the folder may be the database's own folder (or an ancestor). True for folders a command only adds its
   * own files to (report workbooks); false for folders it owns whole and prunes (the lake).
   */
  mayHoldDatabase: boolean;
}

/** A folder a command writes into, creating it if needed. Returns the canonical path. */
export function checkFolderOutput(target: OutputTarget, options: FolderOptions): string {
  if (!(options.mayHoldDatabase && holdsDatabase(target.path, target.dbPath))) refuseStoreFile(target, 'folder');
  const path = canonicalPath(target.path);
  const { at, kind } = nearestExisting(path);
  if (kind !== 'folder') {
    if (at === path) throw new OutputRefusedError(`${target.flag} ${target.path} is a file; pass a folder`);
    throw new OutputRefusedError(`${target.flag} ${target.path}: ${at} is a file, so the folder cannot be created there`);
  }
  return path;
}
