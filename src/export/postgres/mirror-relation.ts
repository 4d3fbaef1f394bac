// One mirrored table within an export's transaction: fingerprint the view's slices in DuckDB, compare them with what
// the last export wrote, and rewrite only what changed – or rebuild the table whole when it is new or its definition
// changed. Every step is part of the caller's transaction (export-postgres.ts).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import type { Store } from '../../store/database.ts';
import { StoreError } from '../../util/errors.ts';
import { forgetDaySlices, saveDaySlices, saveTable, type ExportState } from './export-state.ts';
import { copyCsv, createIndexes, createTable, deleteSlices, tableDefinition } from './mirror-table.ts';
import type { MirroredRelation } from './relations.ts';
import { diffSlices, type Slice } from './slice-diff.ts';
import { stageRelation, writeSlicesCsv, type StagedRelation } from './stage.ts';

export interface TableChange {
  /** Day tables: the slices rewritten, as account/YYYY-MM-DD; whole tables: 'whole'. */
  days: string[] | 'whole';
  removed: number;
  rows: number;
  created: boolean;
}

export interface RunContext {
  state: ExportState;
  existing: ReadonlySet<string>;
  duckdb: string;
  exportId: number;
  exportedAt: string;
  descriptions: ReadonlyMap<string, string>;
  work: string;
}

/** One table: fingerprint, compare, rewrite what changed and record it; undefined when nothing changed. */
export async function mirrorRelation(store: Store, client: pg.Client, relation: MirroredRelation, run: RunContext): Promise<Applied | undefined> {
  const staged = await stageRelation(store, relation, run.exportedAt);
  const definition = tableDefinition(relation, staged.columns, run.duckdb);
  const fresh = run.state.tables.get(relation.table)?.definition !== definition || !run.existing.has(relation.table);
  const what = run.descriptions.get(relation.view) ?? '';
  const description = relation.exportedAt
    ? `gpuledger: ${what} exported_at: when the export that wrote the row committed.`
    : `gpuledger (mirror of the DuckDB view ${relation.view}): ${what}`;
  const applied = fresh ? await rebuild(store, client, staged, description, run.work) : await update(store, client, staged, run.state, run.work);
  if (!applied) return undefined;
  const fingerprint = relation.grain === 'whole' ? [...staged.slices.values()][0]!.fingerprint : null;
  await saveTable(client, relation.table, { definition, fingerprint, rows: staged.rows }, run.exportId);
  if (relation.grain === 'day') await saveDaySlices(client, relation.table, applied.written, run.exportId);
  return applied;
}

export interface Applied {
  change: TableChange;
  written: Slice[];
  deleted: number;
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
