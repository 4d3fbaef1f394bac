// `gpuledger export postgres`: mirror the tables of relations.ts into a PostgreSQL schema, incrementally, in ONE
// transaction. A reader of the schema sees the previous export or this one, never a mix (PostgreSQL's MVCC: nothing
// is visible before COMMIT, and nothing blocks readers but the rebuild of a table whose definition changed). A killed
// export, a server that goes away or a refused statement end the transaction uncommitted: the previous export stays,
// with the state that describes it (export-state.ts), and the next run does the work again.
//
// Per table: DuckDB computes the view once (materialize.ts) and fingerprints each slice (stage.ts); slices whose
// fingerprint differs from the last export's are deleted and streamed in again with COPY (mirror-table.ts); a table
// whose definition changed – new columns, another DuckDB – is rebuilt whole. One connection, so one transaction: COPY
// streams on parallel connections would each commit on their own, and a killed export could leave half a mirror.
import { rmSync, statSync } from 'node:fs';
import type pg from 'pg';
import { listPublicViews } from '../../query/public-views.ts';
import type { Store } from '../../store/database.ts';
import { silentLogger, type Logger } from '../../util/log.ts';
import { VERSION } from '../../version.ts';
import { ident } from './column-types.ts';
import { connectPostgres, type PostgresTarget } from './connect.ts';
import { ensureStateTables, readState } from './export-state.ts';
import { refuseForeignObjects } from './foreign-objects.ts';
import { createMaterializer } from './materialize.ts';
import { applyRelation, prepareRelation, type Applied, type RunContext, type TableChange } from './mirror-relation.ts';
import { applyLoadSettings } from './mirror-table.ts';
import { MIRRORED_RELATIONS, type MirroredRelation } from './relations.ts';
import { targetError } from './target-errors.ts';
import { createWorkDir } from './work-dir.ts';

export type { TableChange } from './mirror-relation.ts';

export interface PostgresExportSummary {
  exportId: number;
  target: string;
  schema: string;
  tablesCreated: number;
  slicesRewritten: number;
  slicesRemoved: number;
  rowsWritten: number;
  rowsDeleted: number;
  changes: Record<string, TableChange>;
  /** Milliseconds spent computing the views in DuckDB (materialize.ts) – the rest is fingerprints, CSV and PostgreSQL. */
  computeMs: number;
}

export interface PostgresExportOptions {
  log?: Logger;
  env?: NodeJS.ProcessEnv;
  /** The relations to mirror (default: all of relations.ts). */
  relations?: readonly MirroredRelation[];
  /** Rows per CSV part (default stage.ts PART_ROWS); a test sets it small to send a small table in several parts. */
  partRows?: number;
}

export async function exportPostgres(store: Store, target: PostgresTarget, options: PostgresExportOptions = {}): Promise<PostgresExportSummary> {
  const log = options.log ?? silentLogger;
  let client: pg.Client;
  try {
    client = await connectPostgres(target, options.env);
  } catch (e) {
    throw targetError(e, target, 'connect');
  }
  const work = createWorkDir();
  try {
    await client.query('begin');
    const summary = await exportInTransaction(store, client, target, work, options.relations ?? MIRRORED_RELATIONS, log, options);
    await client.query('commit');
    return summary;
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw targetError(e, target, 'export');
  } finally {
    await client.end().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

async function exportInTransaction(store: Store, client: pg.Client, target: PostgresTarget, work: string, relations: readonly MirroredRelation[], log: Logger, options: PostgresExportOptions): Promise<PostgresExportSummary> {
  // two exports into one schema take turns; the second then finds the first's work done and rewrites nothing
  await client.query(`select pg_advisory_xact_lock(hashtext('gpuledger export postgres ' || $1)::bigint)`, [target.schema]);
  // CREATE SCHEMA checks the right to create in the database even with IF NOT EXISTS: ask first, so a schema an
  // administrator made for the export user is enough
  const exists = await client.query('select 1 from pg_namespace where nspname = $1', [target.schema]);
  // a user's table, view or index under one of our names is never dropped or written: refused before any DDL
  if (exists.rowCount !== 0) await refuseForeignObjects(client, target.schema, relations);
  else await client.query(`create schema ${ident(target.schema)}`);
  await client.query(`select set_config('search_path', $1, true), set_config('timezone', 'UTC', true)`, [ident(target.schema)]);
  await applyLoadSettings(client);
  await ensureStateTables(client);
  const state = await readState(client);
  const existing = new Set((await client.query<{ t: string }>('select tablename as t from pg_tables where schemaname = $1', [target.schema])).rows.map((r) => r.t));
  const duckdb = (await store.one<{ v: string }>('select version() as v'))!.v;
  const inserted = (
    await client.query<{ export_id: string; started_at: string }>(
      `insert into _export_runs (started_at, gpuledger_version, source_modified_at) values (now(), $1, $2) returning export_id::text, now()::text as started_at`,
      [VERSION, statSync(store.path).mtime.toISOString()],
    )
  ).rows[0]!;
  const exportId = Number(inserted.export_id);
  const startedAt = inserted.started_at;
  const descriptions = new Map(listPublicViews().map((v) => [v.name, v.description]));
  const summary: PostgresExportSummary = {
    exportId, target: target.url.display, schema: target.schema, tablesCreated: 0, slicesRewritten: 0, slicesRemoved: 0, rowsWritten: 0, rowsDeleted: 0, changes: {}, computeMs: 0,
  };
  const run: RunContext = { state, existing, duckdb, exportId, exportedAt: startedAt, descriptions, work };
  const materializer = await createMaterializer(store, relations.map((r) => r.view));
  const record = (relation: MirroredRelation, applied: Applied, took: string) => {
    summary.changes[relation.table] = applied.change;
    summary.tablesCreated += applied.change.created ? 1 : 0;
    summary.slicesRewritten += applied.written;
    summary.slicesRemoved += applied.change.removed;
    summary.rowsWritten += applied.change.rows;
    summary.rowsDeleted += applied.deleted;
    log.debug(`${relation.table}: ${applied.change.created ? 'created, ' : ''}${describeDays(applied.change.days)}, ${applied.change.rows} row(s) (${took})`);
  };
  // two workers on two processes: DuckDB prepares the tables one after another as fast as it can, and PostgreSQL
  // applies them in the same order as they come – DuckDB never waits for PostgreSQL (while cost_daily is copied and
  // indexed, the rest are computed), and a large table is written in CSV parts, so PostgreSQL copies its first part
  // while DuckDB writes the next
  let applying: Promise<void> = Promise.resolve();
  let failed = false;
  let writing: Promise<void> = Promise.resolve();
  try {
    for (const relation of relations) {
      const preparing = performance.now();
      const prepared = await prepareRelation(store, materializer, relation, { ...run, partRows: options.partRows });
      const preparedMs = Math.round(performance.now() - preparing);
      if (!prepared) {
        log.debug(`${relation.table}: unchanged (DuckDB ${preparedMs} ms)`);
        continue;
      }
      applying = applying.then(async () => {
        const started = performance.now();
        const applied = await applyRelation(client, prepared, run);
        record(relation, applied, `DuckDB ${preparedMs} ms, PostgreSQL ${Math.round(performance.now() - started)} ms`);
      });
      // awaited below; this only keeps it from counting as unhandled meanwhile, and stops DuckDB's work early
      applying.catch(() => {
        failed = true;
      });
      writing = prepared.csv?.done ?? Promise.resolve();
      writing.catch(() => {});
      // one DuckDB connection: the next table is staged once this one's parts are written
      await writing;
      if (failed) break;
    }
    await applying;
  } finally {
    // a failed step must not remove the files a COPY still reads, nor drop what DuckDB still writes from
    await writing.catch(() => {});
    await applying.catch(() => {});
    summary.computeMs = Math.round(materializer.ms);
    log.debug(`views computed in DuckDB in ${summary.computeMs} ms`);
    await materializer.drop();
  }
  await client.query(
    `update _export_runs set finished_at = clock_timestamp(), tables_created = $2, slices_rewritten = $3, slices_removed = $4, rows_deleted = $5, rows_written = $6, changes = $7
     where export_id = $1`,
    [exportId, summary.tablesCreated, summary.slicesRewritten, summary.slicesRemoved, summary.rowsDeleted, summary.rowsWritten, JSON.stringify(summary.changes)],
  );
  return summary;
}

function describeDays(days: TableChange['days']): string {
  return days === 'whole' ? 'replaced' : `${days.length} day(s) rewritten`;
}
