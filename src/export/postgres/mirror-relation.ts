// One mirrored table within an export's transaction, in two halves so that they can overlap: prepare (DuckDB:
// compute the view, fingerprint its slices, compare them with what the last export wrote, write the rows to send as
// CSV) and apply (PostgreSQL: rebuild the table, or delete the changed slices and COPY them in again, and record the
// new state). DuckDB prepares the tables ahead of PostgreSQL, which applies them in order (export-postgres.ts).
import { join } from 'node:path';
import type pg from 'pg';
import type { Store } from '../../store/database.ts';
import { StoreError } from '../../util/errors.ts';
import { forgetDaySlices, saveDaySlices, saveTable, type ExportState } from './export-state.ts';
import type { Materializer } from './materialize.ts';
import { copyCsv, createIndexes, createTable, deleteSlices, tableDefinition } from './mirror-table.ts';
import type { MirroredRelation } from './relations.ts';
import { diffSlices, type Slice } from './slice-diff.ts';
import { stageRelation, writeCsvParts, type CsvParts, type StagedRelation } from './stage.ts';

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
  /** Rows per CSV part (stage.ts PART_ROWS unless a test asks for smaller parts). */
  partRows?: number;
}

/** What a table needs, decided on the DuckDB side: nothing, a rebuild, or these slices rewritten and removed. */
export interface Prepared {
  staged: StagedRelation;
  definition: string;
  action: 'rebuild' | 'update';
  write: Slice[];
  remove: Slice[];
  /** The CSV of the rows to send, being written (absent when none are). */
  csv?: CsvParts;
}

export async function prepareRelation(store: Store, materializer: Materializer, relation: MirroredRelation, run: RunContext): Promise<Prepared | undefined> {
  await materializer.ensure(relation.view);
  const prepared = decide(await stageRelation(store, relation, run.exportedAt), run);
  if (prepared?.write.some((s) => s.rows > 0)) {
    // DuckDB goes on writing the parts while the caller copies the first ones
    prepared.csv = writeCsvParts(store, prepared.staged, prepared.write, (part) => join(run.work, `${relation.table}.${part}.csv`), run.partRows);
  }
  return prepared;
}

function decide(staged: StagedRelation, run: RunContext): Prepared | undefined {
  const { relation } = staged;
  const definition = tableDefinition(relation, staged.columns, run.duckdb);
  const all = [...staged.slices.values()];
  if (run.state.tables.get(relation.table)?.definition !== definition || !run.existing.has(relation.table)) {
    return { staged, definition, action: 'rebuild', write: all, remove: [] };
  }
  if (relation.grain === 'whole') {
    if (run.state.tables.get(relation.table)?.fingerprint === all[0]!.fingerprint) return undefined;
    return { staged, definition, action: 'update', write: all, remove: [] };
  }
  const { write, remove } = diffSlices(staged.slices, run.state.days.get(relation.table) ?? new Map());
  if (write.length === 0 && remove.length === 0) return undefined;
  return { staged, definition, action: 'update', write, remove };
}

export interface Applied {
  change: TableChange;
  written: number;
  deleted: number;
}

export async function applyRelation(client: pg.Client, prepared: Prepared, run: RunContext): Promise<Applied> {
  const { staged, write, remove } = prepared;
  const { relation, columns } = staged;
  const rebuild = prepared.action === 'rebuild';
  let deleted = 0;
  if (rebuild) {
    const what = run.descriptions.get(relation.view) ?? '';
    await createTable(client, relation, columns, relation.exportedAt ? `gpuledger: ${what} exported_at: when the export that wrote the row started.` : `gpuledger (mirror of the DuckDB view ${relation.view}): ${what}`);
    if (relation.grain === 'day') await forgetDaySlices(client, relation.table, 'all');
  } else {
    deleted = await deleteSlices(client, relation, relation.grain === 'whole' ? 'all' : [...write, ...remove]);
    if (relation.grain === 'day') await forgetDaySlices(client, relation.table, remove);
  }
  let rows = 0;
  if (prepared.csv) rows = await copyCsv(client, relation, columns, prepared.csv.files());
  const expected = write.reduce((n, s) => n + s.rows, 0);
  if (rows !== expected) throw new StoreError(`export postgres: COPY into ${relation.table} took ${rows} row(s), DuckDB had ${expected}; nothing was committed`);
  // a fresh table is indexed after its load: far cheaper than maintaining the indexes row by row
  if (rebuild) await createIndexes(client, relation);
  const fingerprint = relation.grain === 'whole' ? write[0]!.fingerprint : null;
  await saveTable(client, relation.table, { definition: prepared.definition, fingerprint, rows: staged.rows }, run.exportId);
  if (relation.grain === 'day') await saveDaySlices(client, relation.table, write, run.exportId);
  return {
    change: { days: relation.grain === 'day' ? write.map((s) => `${s.account}/${s.day}`) : 'whole', removed: remove.length, rows, created: rebuild },
    written: relation.grain === 'day' ? write.length : 0,
    deleted,
  };
}
