// Whether one copy of the database (published, writer, previous, set aside) is a gpuledger database that can be
// trusted: a DuckDB file, that opens read-only, at a migration this gpuledger knows, whose every table reads to the
// end. A copy that fails is never adopted, restored or rotated into a generation (issue 18 §2).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { quotedIdentifier } from '../util/duckdb-api.ts';
import { DatabaseLockedError, errorMessage } from '../util/errors.ts';
import { newestRecord } from './copy-newest.ts';
import { openStore, type Store } from './database.ts';
import { listMigrations, schemaVersion } from './migrate.ts';

/** good; damaged (DuckDB cannot read it); foreign (no gpuledger database); newer (a later gpuledger's); in use. */
export type CopyState = 'good' | 'damaged' | 'foreign' | 'newer' | 'in-use';

export interface CopyCheck {
  path: string;
  state: CopyState;
  /** Why a copy is not good, in a few words. */
  problem?: string;
  schemaVersion?: number;
  /** When the newest run recorded in it started or finished (RFC 3339), if any. */
  lastRun?: string;
  /** The end of the newest billing window loaded into it (RFC 3339), if any. */
  dataThrough?: string;
  /** The newest write recorded in it – a run, a load, a balance observation … (copy-newest.ts) – if any. */
  newest?: string;
  bytes: number;
  modified: Date;
}

/** DuckDB's main header: a checksum, then the magic bytes "DUCK" at offset 8 (DuckDB storage format). */
export function hasDuckDbMagic(path: string): boolean {
  const buf = Buffer.alloc(4);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return readSync(fd, buf, 0, 4, 8) === 4 && buf.toString('latin1') === 'DUCK';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads every row of every table: a checksum error in any data block shows here, not in the next report. */
async function readAll(store: Store): Promise<void> {
  const tables = await store.all<{ name: string }>(`select table_name as name from duckdb_tables() where database_name = current_database() and not temporary`);
  for (const { name } of tables) await store.run(`select count(*), bit_xor(hash(t)) from ${quotedIdentifier(name)} t`);
}

export async function checkCopy(path: string): Promise<CopyCheck> {
  const { size: bytes, mtime: modified } = statSync(path);
  const base = { path, bytes, modified };
  if (!hasDuckDbMagic(path)) return { ...base, state: 'damaged', problem: `not a DuckDB database file, ${bytes} bytes` };
  let store: Store;
  try {
    store = await openStore({ path, readOnly: true });
  } catch (e) {
    if (e instanceof DatabaseLockedError) return { ...base, state: 'in-use', problem: 'open read-write in another process' };
    return { ...base, state: 'damaged', problem: duckDbWords(e) };
  }
  try {
    const version = await schemaVersion(store);
    const latest = listMigrations().at(-1)?.version ?? 0;
    if (version === 0) return { ...base, state: 'foreign', problem: 'not a gpuledger database (no _meta_schema_version)' };
    if (version > latest) return { ...base, state: 'newer', schemaVersion: version, problem: `schema version ${version}, newer than this gpuledger knows (${latest})` };
    await readAll(store);
    const row = await store.one<{ last_run: string | null; data_through: string | null }>(
      `select (select strftime(max(coalesce(finished_at, started_at)), '%Y-%m-%dT%H:%M:%SZ') from _meta_runs) as last_run,
              (select strftime(max(loaded_through), '%Y-%m-%dT%H:%M:%SZ') from _meta_watermarks where bucket_size <> '') as data_through`,
    );
    const newest = await newestRecord(store);
    return { ...base, state: 'good', schemaVersion: version, lastRun: row?.last_run ?? undefined, dataThrough: row?.data_through ?? undefined, newest };
  } catch (e) {
    return { ...base, state: 'damaged', problem: duckDbWords(e) };
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** DuckDB's own words for what is wrong, without our advice around them (the caller gives its own). */
export function duckDbWords(e: unknown): string {
  let inner = e;
  while (inner instanceof Error && inner.cause !== undefined) inner = inner.cause;
  return errorMessage(inner).split('\n')[0]!.trim();
}
