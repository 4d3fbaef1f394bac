// The files the store owns, named once. Everything gpuledger keeps beside the database is `<db>` itself or a name that
// starts with `<db>.` in the same folder: the writer copy (`.writer`), WAL and checkpoint side files DuckDB makes
// (`.wal`, `.wal.recovery`, `.wal.checkpoint`), its temp folder (`.tmp/`), the locks (`.lock`, `.sync.lock`), publish
// files (`.publish-<pid>-<start>.tmp`) and kept copies (`.previous`, `.aside-…`: copies.ts). One prefix rule rather
// than a list, so a side file DuckDB or a later gpuledger adds is protected the day it appears. Output guards (no
// command writes over these) and the query sandbox (which may touch none of them) read this module.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

/** The canonical absolute path of `path`: symlinks resolved as far as the path exists, `..` removed. */
export function canonicalPath(path: string): string {
  const abs = resolve(path);
  const tail: string[] = [];
  for (let at = abs; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...tail.reverse());
    } catch {
      if (dirname(at) === at) return abs;
      tail.push(basename(at));
    }
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
  for (const suffix of ['', '.writer', '.wal', '.writer.wal', '.previous']) {
    if (inodeOf(db + suffix) === id) return `${describeSuffix(suffix)} (a hard link to ${db + suffix})`;
  }
  return undefined;
}

function roleByName(path: string, db: string): string | undefined {
  if (path === db) return 'the database';
  if (path.startsWith(db + '.')) {
    const rest = path.slice(db.length);
    const first = rest.split(sep)[0] ?? rest;
    return describeSuffix(first);
  }
  // a folder that holds the database (or is it): writing a file there is fine, replacing or emptying it is not
  if (db.startsWith(path + sep) || path === sep) return `a folder holding the database ${db}`;
  return undefined;
}

function describeSuffix(suffix: string): string {
  if (suffix === '') return 'the database';
  if (suffix.startsWith('.writer')) return "the database's writer copy";
  if (suffix.startsWith('.wal')) return "the database's write-ahead log";
  if (suffix.startsWith('.tmp')) return "the database's temp folder";
  if (suffix.endsWith('.lock')) return "the database's lock file";
  if (suffix.startsWith('.publish')) return "a publish file of the database";
  if (suffix === '.previous') return "the database's previous generation";
  if (suffix.startsWith('.aside-')) return 'a copy of the database kept aside';
  return `a file the database keeps (${suffix.slice(1)})`;
}

function inodeOf(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}
