// `gpuledger export postgres`: mirror the tables of relations.ts into a PostgreSQL schema, incrementally, in ONE
// transaction. A reader of the schema sees the previous export or this one, never a mix (PostgreSQL's MVCC: nothing
// is visible before COMMIT, and nothing blocks readers but the rebuild of a table whose definition changed). A killed
// export, a server that goes away or a refused statement end the transaction uncommitted: the previous export stays,
// with the state that describes it (export-state.ts), and the next run does the work again.
//
// Per table: DuckDB computes the view once (materialize.ts) and fingerprints each slice (stage.ts); slices whose
// fingerprint differs from the last export's are deleted and streamed in again with COPY (mirror-table.ts); a table
// whose definition changed – new columns, another DuckDB – is rebuilt whole.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { listPublicViews } from '../../query/public-views.ts';
import type { Store } from '../../store/database.ts';
import { StoreError } from '../../util/errors.ts';
import { silentLogger, type Logger } from '../../util/log.ts';
import { VERSION } from '../../version.ts';
import { ident } from './column-types.ts';
import { connectPostgres, type PostgresTarget } from './connect.ts';
import { ensureStateTables, forgetDaySlices, readState, saveDaySlices, saveTable, type ExportState } from './export-state.ts';
import { copyCsv, createIndexes, createTable, deleteSlices, tableDefinition } from './mirror-table.ts';
import { MIRRORED_RELATIONS, type MirroredRelation } from './relations.ts';
import { diffSlices, type Slice } from './slice-diff.ts';
import { materializeViews } from './materialize.ts';
import { stageRelation, writeSlicesCsv, type StagedRelation } from './stage.ts';
import { targetError } from './target-errors.ts';

export interface TableChange {
  /** Day tables: the slices rewritten, as account/YYYY-MM-DD; whole tables: 'whole'. */
  days: string[] | 'whole';
  removed: number;
  rows: number;
  created: boolean;
}

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
}

export interface PostgresExportOptions {
  log?: Logger;
  env?: NodeJS.ProcessEnv;
  /** The relations to mirror (default: all of relations.ts). */
  relations?: readonly MirroredRelation[];
}

export async function exportPostgres(store: Store, target: PostgresTarget, options: PostgresExportOptions = {}): Promise<PostgresExportSummary> {
  const log = options.log ?? silentLogger;
  let client: pg.Client;
  try {
    client = await connectPostgres(target, options.env);
  } catch (e) {
    throw targetError(e, target, 'connect');
  }
  const work = mkdtempSync(join(tmpdir(), 'gpuledger-pg-export-'));
  try {
    await client.query('begin');
    const summary = await exportInTransaction(store, client, target, work, options.relations ?? MIRRORED_RELATIONS, log);
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

async function exportInTransaction(store: Store, client: pg.Client, target: PostgresTarget, work: string, relations: readonly MirroredRelation[], log: Logger): Promise<PostgresExportSummary> {
  // CREATE SCHEMA checks the right to create in the database even with IF NOT EXISTS: ask first, so a schema an
  // administrator made for the export user is enough
  const exists = await client.query('select 1 from pg_namespace where nspname = $1', [target.schema]);
  if (exists.rowCount === 0) await client.query(`create schema ${ident(target.schema)}`);
  await client.query(`select set_config('search_path', $1, true), set_config('timezone', 'UTC', true)`, [ident(target.schema)]);
  // two exports into one schema take turns; the second then finds the first's work done and rewrites nothing
  await client.query(`select pg_advisory_xact_lock(hashtext('gpuledger export postgres ' || $1)::bigint)`, [target.schema]);
  await ensureStateTables(client);
  const state = await readState(client);
  const existing = new Set((await client.query<{ t: string }>('select tablename as t from pg_tables where schemaname = $1', [target.schema])).rows.map((r) => r.t));
  const duckdb = (await store.one<{ v: string }>('select version() as v'))!.v;
  const run = (
    await client.query<{ export_id: string; started_at: string }>(
      `insert into _export_runs (started_at, gpuledger_version, source_modified_at) values (now(), $1, $2) returning export_id::text, now()::text as started_at`,
      [VERSION, statSync(store.path).mtime.toISOString()],
    )
  ).rows[0]!;
  const exportId = Number(run.export_id);
  const descriptions = new Map(listPublicViews().map((v) => [v.name, v.description]));
  const summary: PostgresExportSummary = {
    exportId, target: target.url.display, schema: target.schema, tablesCreated: 0, slicesRewritten: 0, slicesRemoved: 0, rowsWritten: 0, rowsDeleted: 0, changes: {},
  };
  const materialized = await materializeViews(store, relations.map((r) => r.view));
  try {
  for (const relation of relations) {
    const staged = await stageRelation(store, relation, run.started_at);
    {
      const definition = tableDefinition(relation, staged.columns, duckdb);
      const previous = state.tables.get(relation.table);
      const fresh = !previous || previous.definition !== definition || !existing.has(relation.table);
      const description = relation.exportedAt
        ? `gpuledger: ${descriptions.get(relation.view) ?? relation.view} exported_at: when the export that wrote it committed.`
        : `gpuledger (mirror of the DuckDB view ${relation.view}): ${descriptions.get(relation.view) ?? ''}`;
      const change = fresh
        ? await rebuild(store, client, staged, description, work)
        : await update(store, client, staged, state, work);
      if (!change) continue;
      await saveTable(client, relation.table, { definition, fingerprint: relation.grain === 'whole' ? [...staged.slices.values()][0]!.fingerprint : null, rows: staged.rows }, exportId);
      if (relation.grain === 'day') await saveDaySlices(client, relation.table, change.written, exportId);
      summary.changes[relation.table] = change.change;
      summary.tablesCreated += change.change.created ? 1 : 0;
      summary.slicesRewritten += change.written.length;
      summary.slicesRemoved += change.change.removed;
      summary.rowsWritten += change.change.rows;
      summary.rowsDeleted += change.deleted;
      log.debug(`${relation.table}: ${change.change.created ? 'created, ' : ''}${describeDays(change.change.days)}, ${change.change.rows} row(s)`);
    }
  }
  } finally {
    await materialized.drop();
  }
  await client.query(
    `update _export_runs set finished_at = clock_timestamp(), tables_created = $2, slices_rewritten = $3, slices_removed = $4, rows_deleted = $5, rows_written = $6, changes = $7
     where export_id = $1`,
    [exportId, summary.tablesCreated, summary.slicesRewritten, summary.slicesRemoved, summary.rowsDeleted, summary.rowsWritten, JSON.stringify(summary.changes)],
  );
  return summary;
}

interface Applied {
  change: TableChange;
  written: Slice[];
  deleted: number;
}

function describeDays(days: TableChange['days']): string {
  return days === 'whole' ? 'replaced' : `${days.length} day(s) rewritten`;
}

const dayLabel = (s: Slice) => `${s.account}/${s.day}`;

/** A new table, or one whose definition changed: created, loaded whole, then indexed. */
async function rebuild(store: Store, client: pg.Client, staged: StagedRelation, description: string, work: string): Promise<Applied> {
  const { relation, columns } = staged;
  await createTable(client, relation, columns, description);
  if (relation.grain === 'day') await forgetDaySlices(client, relation.table, 'all');
  const rows = await send(store, client, staged, 'all', work);
  await createIndexes(client, relation);
  const written = [...staged.slices.values()];
  return {
    change: { days: relation.grain === 'day' ? written.map(dayLabel) : 'whole', removed: 0, rows, created: true },
    written: relation.grain === 'day' ? written : [],
    deleted: 0,
  };
}

/** An existing table: only the slices whose fingerprint changed are deleted and sent again. */
async function update(store: Store, client: pg.Client, staged: StagedRelation, state: ExportState, work: string): Promise<Applied | undefined> {
  const { relation } = staged;
  if (relation.grain === 'whole') {
    const slice = [...staged.slices.values()][0]!;
    if (state.tables.get(relation.table)?.fingerprint === slice.fingerprint) return undefined;
    const deleted = await deleteSlices(client, relation, 'all');
    const rows = await send(store, client, staged, 'all', work);
    return { change: { days: 'whole', removed: 0, rows, created: false }, written: [], deleted };
  }
  const { write, remove } = diffSlices(staged.slices, state.days.get(relation.table) ?? new Map());
  if (write.length === 0 && remove.length === 0) return undefined;
  const deleted = await deleteSlices(client, relation, [...write, ...remove]);
  await forgetDaySlices(client, relation.table, remove);
  const rows = write.length > 0 ? await send(store, client, staged, write, work) : 0;
  return { change: { days: write.map(dayLabel), removed: remove.length, rows, created: false }, written: write, deleted };
}

/** DuckDB writes the slices as CSV, COPY streams it in; the row counts must agree. */
async function send(store: Store, client: pg.Client, staged: StagedRelation, slices: readonly Slice[] | 'all', work: string): Promise<number> {
  const file = join(work, `${staged.relation.table}.csv`);
  try {
    await writeSlicesCsv(store, staged, slices, file);
    const rows = await copyCsv(client, staged.relation, staged.columns, file);
    const expected = slices === 'all' ? staged.rows : slices.reduce((n, s) => n + s.rows, 0);
    if (rows !== expected) throw new StoreError(`export postgres: COPY into ${staged.relation.table} took ${rows} row(s), DuckDB had ${expected}; nothing was committed`);
    return rows;
  } finally {
    rmSync(file, { force: true });
  }
}
