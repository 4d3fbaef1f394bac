// `gpuledger export lake`: the cost facts as a Hive-partitioned Parquet lake that an export updates in place
// (issue 21 §3). The tables are staged once in temp tables, each partition's fingerprint is computed in DuckDB, and
// only partitions whose data changed are rewritten – each file replaced atomically (temp file beside it, fsync,
// rename), removed partitions deleted, the manifest written last. A killed export leaves a lake whose changed
// files no longer match the manifest, and the next export rewrites exactly those.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { quotedString } from '../../util/duckdb-api.ts';
import { discard, moveIntoPlace, temporaryBeside } from '../../outputs/atomic-file.ts';
import { checkFileOutput } from '../../outputs/output-guard.ts';
import type { Store } from '../../store/database.ts';
import { headerComment, readSqlFile } from '../../transform/sql-files.ts';
import { isGpuledgerError, StoreError } from '../../util/errors.ts';
import { removeLakeFile, removeLeftovers } from './lake-folder.ts';
import { LAKE_TABLES, MANIFEST_NAME, partitionFile, type LakeTable } from './lake-layout.ts';
import { refuseLinksInLake } from './lake-links.ts';
import { emptyManifest, writeManifest, type LakeManifest, type ManifestFile } from './lake-manifest.ts';
import { planLake, type SourcePartition } from './lake-plan.ts';

export interface LakeTarget {
  /** The lake folder, checked (checkFolderOutput) and inspected (inspectLakeFolder). */
  lake: string;
  /** Its manifest, or undefined for a new lake. */
  previous: LakeManifest | undefined;
  dbPath: string;
  flag: string;
  now?: () => Date;
}

export interface LakeSummary {
  path: string;
  rows: Record<LakeTable, number>;
  files: number;
  written: number;
  kept: number;
  removed: number;
  leftovers: number;
}

const stagedName = (table: LakeTable) => `lake_stage_${table}`;

async function stage(store: Store, table: LakeTable): Promise<{ partitions: SourcePartition[]; description: string; columns: { name: string; type: string }[] }> {
  const sql = readSqlFile('export', `lake_${table}`);
  await store.run(`create or replace temp table ${stagedName(table)} as ${sql}`);
  const columns = await store.all<{ column_name: string; column_type: string }>(`describe select * exclude (account, family, month) from ${stagedName(table)}`);
  const rows = await store.all<{ account: string; family: string; month: string; row_count: string; amount: string; fingerprint: string }>(
    readSqlFile('export', 'lake_partitions'),
    { staged: stagedName(table) },
  );
  return {
    description: headerComment(sql),
    columns: columns.map((c) => ({ name: c.column_name, type: c.column_type })),
    partitions: rows.map((r) => ({ table, account: r.account, family: r.family, month: r.month, rows: Number(r.row_count), amount: r.amount, fingerprint: r.fingerprint })),
  };
}

async function writePartition(store: Store, target: LakeTarget, p: SourcePartition, now: Date): Promise<ManifestFile> {
  const path = partitionFile(p);
  const file = join(target.lake, path);
  mkdirSync(dirname(file), { recursive: true });
  // a partition file is replaced by rename, so a link planted in the lake is replaced, never written through; the
  // guard still refuses one that is the store's file by name or inode
  checkFileOutput({ flag: target.flag, path: file, dbPath: target.dbPath });
  const tmp = temporaryBeside(file, target.dbPath);
  try {
    await store.run(
      `copy (select * exclude (account, family, month) from ${stagedName(p.table)} where account = $account and family = $family and month = $month)
       to ${quotedString(tmp)} (format parquet, compression zstd)`,
      { account: p.account, family: p.family, month: p.month },
    );
    moveIntoPlace(tmp, file);
  } catch (e) {
    discard(tmp);
    throw e;
  }
  const s = statSync(file);
  return { path, table: p.table, account: p.account, family: p.family, month: p.month, rows: p.rows, amount: p.amount, fingerprint: p.fingerprint, bytes: s.size, mtimeMs: s.mtimeMs, writtenAt: now.toISOString() };
}

export async function exportLake(store: Store, target: LakeTarget): Promise<LakeSummary> {
  const now = target.now ?? (() => new Date());
  const { lake, dbPath } = target;
  // before anything is written – the claim, the sweep of leftovers, a partition – nothing in the lake is a link
  refuseLinksInLake(lake, target.flag);
  if (!target.previous) {
    // claim the folder first: a first export killed half-way leaves a lake (ours to finish), not a foreign folder
    mkdirSync(lake, { recursive: true });
    writeManifest(lake, emptyManifest(now()), dbPath);
  }
  const leftovers = removeLeftovers(lake);
  try {
    const tables: LakeManifest['tables'] = {};
    const source: SourcePartition[] = [];
    for (const table of LAKE_TABLES) {
      const staged = await stage(store, table);
      tables[table] = { description: staged.description, columns: staged.columns };
      source.push(...staged.partitions);
    }
    const plan = planLake(lake, source, target.previous);
    // the staging took a while: the paths about to be written or deleted are walked again
    refuseLinksInLake(lake, target.flag, [...plan.write.map(partitionFile), ...plan.remove.map((f) => f.path), MANIFEST_NAME]);
    const written: ManifestFile[] = [];
    for (const p of plan.write) written.push(await writePartition(store, target, p, now()));
    // before the manifest: a manifest naming a deleted file is repaired next time, a forgotten file never would be
    for (const f of plan.remove) removeLakeFile(lake, f.path);
    const files = [...plan.keep, ...written].sort((a, b) => a.path.localeCompare(b.path));
    writeManifest(lake, { format: 'gpuledger-lake', version: 1, writtenAt: now().toISOString(), tables, files }, dbPath);
    const rows = Object.fromEntries(LAKE_TABLES.map((t) => [t, source.filter((p) => p.table === t).reduce((n, p) => n + p.rows, 0)])) as Record<LakeTable, number>;
    return { path: lake, rows, files: files.length, written: written.length, kept: plan.keep.length, removed: plan.remove.length, leftovers };
  } catch (e) {
    if (isGpuledgerError(e)) throw e;
    throw new StoreError(`export lake to ${lake} failed: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  } finally {
    // the staged copies live only in this connection; dropping them early just frees memory for the caller
    for (const table of LAKE_TABLES) await store.run(`drop table if exists temp.${stagedName(table)}`);
  }
}
