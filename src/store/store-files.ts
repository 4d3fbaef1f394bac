// The files the store owns, named once. Everything gpuledger keeps beside the database is `<db>` itself or a name that
// starts with `<db>.` in the same folder: the writer copy (`.writer`), WAL and checkpoint side files DuckDB makes
// (`.wal`, `.wal.recovery`, `.wal.checkpoint`), its temp folder (`.tmp/`), the locks (`.lock`, `.sync.lock`), publish
// files (`.publish-<pid>-<start>.tmp`), kept copies (`.previous`, `.aside-…`: copies.ts), the scheduler's state
// (`.schedule.json`) and whatever a later gpuledger adds. One prefix rule rather than a list, so a side file DuckDB or
// a later gpuledger adds is protected the day it appears. Output guards (no command writes over these, src/outputs/)
// and the query sandbox (which may touch none of them) read this module.
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

/** How many symlinks one path may pass through before we stop following (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * The canonical absolute path of `path`: `..` removed and symlinks resolved as far as the path exists – including a
 * dangling last link, since writing through it would create the file it points at.
 */
export function canonicalPath(path: string, depth = 0): string {
  const abs = resolve(path);
  const tail: string[] = [];
  for (let at = abs; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...tail.reverse());
    } catch {
      const target = depth < MAX_LINKS ? danglingLinkTarget(at) : undefined;
      if (target !== undefined) return canonicalPath(join(resolve(dirname(at), target), ...tail.reverse()), depth + 1);
      if (dirname(at) === at) return abs;
      tail.push(basename(at));
    }
  }
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** What `candidate` is to the store at `dbPath` ("the database", "the writer copy", …), or undefined if not the store's. */
export function storeFileRole(candidate: string, dbPath: string): string | undefined {
  const db = canonicalPath(dbPath);
  const path = canonicalPath(candidate);
  const byName = roleByName(path, db);
  if (byName) return byName;
  // a hard link (or a bind mount) to a store file has another name but the same inode
  const id = inodeOf(path);
  if (id === undefined) return undefined;
  for (const file of storeFiles(db)) {
    if (inodeOf(file) === id) return `${describeSuffix(file.slice(db.length).split(sep)[0] ?? '')} (a hard link to ${file})`;
  }
  return undefined;
}

/** True when `candidate` is the database's folder or one of its ancestors (emptying or replacing it loses the store). */
export function holdsDatabase(candidate: string, dbPath: string): boolean {
  return isAncestor(canonicalPath(candidate), canonicalPath(dbPath));
}

function roleByName(path: string, db: string): string | undefined {
  if (path === db) return 'the database';
  if (path.startsWith(db + '.')) {
    const rest = path.slice(db.length);
    return describeSuffix(rest.split(sep)[0] ?? rest);
  }
  // a folder that holds the database (or is it): writing a file there is fine, replacing or emptying it is not
  if (isAncestor(path, db)) return `a folder holding the database ${db}`;
  return undefined;
}

function isAncestor(folder: string, file: string): boolean {
  return file.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function describeSuffix(suffix: string): string {
  if (suffix === '') return 'the database';
  if (suffix.startsWith('.writer')) return "the database's writer copy";
  if (suffix.startsWith('.wal')) return "the database's write-ahead log";
  if (suffix.startsWith('.tmp')) return "the database's temp folder";
  if (suffix.endsWith('.lock')) return "the database's lock file";
  if (suffix.startsWith('.publish')) return 'a publish file of the database';
  if (suffix === '.previous') return "the database's previous generation";
  if (suffix.startsWith('.aside-')) return 'a copy of the database kept aside';
  if (suffix === '.schedule.json') return "the scheduler's state file";
  return `a file the database keeps (${suffix.slice(1)})`;
}

/** Every file the store has now: `<db>`, `<db>.*` beside it, and what lies in such folders (DuckDB's `.tmp/`). */
function storeFiles(db: string): string[] {
  const base = basename(db);
  let names: string[];
  try {
    names = readdirSync(dirname(db)).filter((n) => n === base || n.startsWith(base + '.'));
  } catch {
    return [];
  }
  return names.flatMap((n) => filesUnder(join(dirname(db), n), 3));
}

function filesUnder(path: string, depth: number): string[] {
  try {
    if (!lstatSync(path).isDirectory()) return [path];
    if (depth === 0) return [];
    return readdirSync(path).flatMap((n) => filesUnder(join(path, n), depth - 1));
  } catch {
    return [];
  }
}

function inodeOf(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}
