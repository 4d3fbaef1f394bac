// `gpuledger query` runs in a sandbox DuckDB itself enforces (issue 11 item 4): the database is open READ_ONLY, no
// file may be read or written (enable_external_access=false) except those granted with --allow-read, and the
// configuration is locked so no statement can SET its way out. A grant is a file (allowed_paths) or a folder
// (allowed_directories); DuckDB resolves symlinks and `..` before comparing, so a grant cannot be walked out of.
//
// DuckDB itself adds the database and its WAL names (`<db>.wal`, `.wal.recovery`, `.wal.checkpoint`) and its temp
// folder (`<db>.tmp/`) to the allow-lists when external access goes off (issue 18 §3: EXPLAIN ANALYZE COPY wrote
// them). So the temp folder is switched off first (query never spills to disk), and without grants the local file
// system is disabled as a whole: then no statement opens any file. With grants it must stay on; then no statement
// that writes passes the guard (read-only-guard.ts), a grant may not be or hold one of the store's files, and the
// only names DuckDB still lets a statement open are the database and its WAL – which hold nothing the database does
// not show through SQL.
import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { LIST, listValue, VARCHAR, type DuckDBConnection } from '../util/duckdb-api.ts';
import { storeFileRole } from '../store/store-files.ts';
import { UsageError } from '../util/errors.ts';

export interface ReadGrants {
  files: string[];
  directories: string[];
}

export const NO_GRANTS: ReadGrants = { files: [], directories: [] };

/**
 * --allow-read values as absolute files and folders; a path that does not exist, or one that is (or holds) a file of
 * the store at dbPath, is a usage error: the store's files are read through the database, never as files.
 */
export function resolveReadGrants(paths: readonly string[], dbPath: string, cwd = process.cwd()): ReadGrants {
  const grants: ReadGrants = { files: [], directories: [] };
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(absolute).isDirectory();
    } catch {
      throw new UsageError(`--allow-read: ${path} does not exist; it takes a file or a folder to let query read`);
    }
    const role = storeFileRole(absolute, resolve(cwd, dbPath));
    if (role !== undefined) {
      throw new UsageError(`--allow-read: ${path} is ${role}; query reads the store only through the database – grant the files you want to join, or a folder that holds none of the store's files`);
    }
    // a trailing separator, so that granting /data/in does not also grant /data/inbox
    if (isDirectory) grants.directories.push(absolute.endsWith(sep) ? absolute : absolute + sep);
    else grants.files.push(absolute);
  }
  return grants;
}

/** What one sandboxed database instance may use (serve's SQL page: several run at once beside the pages). */
export interface SandboxLimits {
  /** DuckDB's memory_limit, e.g. '256MB'; with no temp folder a query past it fails with DuckDB's Out of Memory Error. */
  memoryLimit?: string;
  threads?: number;
}

export function hasGrants(grants: ReadGrants): boolean {
  return grants.files.length > 0 || grants.directories.length > 0;
}

/**
 * Locks the connection's database instance down. Must run before any user statement is even prepared: binding
 * read_csv already reads the file, and COPY/EXPORT check their targets at bind time. Settings that gpuledger itself
 * needs (TimeZone) must be set before this; SET VARIABLE still works afterwards (it is not configuration).
 */
export async function enterSandbox(connection: DuckDBConnection, grants: ReadGrants, limits: SandboxLimits = {}): Promise<void> {
  // the allow-lists can only be set while external access is still on, so they come first
  // typed, so that an empty list (no grants) binds as VARCHAR[] rather than a list of ANY
  await connection.run('set allowed_directories = $1', [listValue(grants.directories)], [LIST(VARCHAR)]);
  await connection.run('set allowed_paths = $1', [listValue(grants.files)], [LIST(VARCHAR)]);
  // before external access goes off, or DuckDB allows every statement into <db>.tmp/
  await connection.run("set temp_directory = ''");
  await connection.run('set enable_external_access = false');
  // after it (DuckDB needs the file system to switch external access off); this closes the database's own WAL names
  if (!hasGrants(grants)) await connection.run("set disabled_filesystems = 'LocalFileSystem'");
  // before the lock, which is what keeps a statement from raising them again
  if (limits.memoryLimit !== undefined) await connection.run('set memory_limit = $1', [limits.memoryLimit], [VARCHAR]);
  if (limits.threads !== undefined) await connection.run(`set threads = ${Math.max(1, Math.trunc(limits.threads))}`);
  await connection.run('set autoinstall_known_extensions = false');
  await connection.run('set autoload_known_extensions = false');
  await connection.run('set lock_configuration = true');
}
