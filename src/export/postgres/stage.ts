// The DuckDB half of `export postgres`: each mirrored view – already computed into a temporary table of its name
// (materialize.ts) – is fingerprinted per slice, and the slices to send are written as CSV for COPY. A slice's fingerprint is its row count and the sum of its rows' hashes: order-independent, and a repeated
// row counts twice (a XOR would cancel it). DuckDB's hash is deterministic but not promised across DuckDB versions;
// the version is part of a table's definition (definition.ts), so a new DuckDB rebuilds the tables once instead of
// comparing fingerprints it cannot compare.
import { listValue, quotedString } from '@duckdb/node-api';
import type { Store } from '../../store/database.ts';
import { StoreError } from '../../util/errors.ts';
import { ident, mirroredColumn, type MirroredColumn } from './column-types.ts';
import type { MirroredRelation } from './relations.ts';
import { sliceKey, type Slice } from './slice-diff.ts';

export interface StagedRelation {
  relation: MirroredRelation;
  columns: MirroredColumn[];
  /** Slices by sliceKey (one, '', for whole tables). */
  slices: Map<string, Slice>;
  rows: number;
  exportedAt: string;
}

const KEYS = ident('_gpuledger_pg_keys');

/**
 * The rows as they travel: the view's columns, lists as JSON, exported_at added where declared ($1). DuckDB writes a
 * UHUGEINT (the subject key) as text at some 60 µs a value – 11 of the 15 s of the large account's cost_daily – and
 * a subject repeats on every day it costs, so each distinct value is written once and joined back (2,245 for 183,186
 * rows there).
 */
function projection(staged: Pick<StagedRelation, 'relation' | 'columns'>): string {
  const view = ident(staged.relation.view);
  const wide = staged.columns.filter((c) => c.duckType === 'UHUGEINT').map((c, i) => ({ column: c, alias: ident(`_gpuledger_text_${i}`) }));
  const expressions = staged.columns.map((c) => {
    const w = wide.find((x) => x.column === c);
    return w ? `${w.alias}.v as ${ident(c.name)}` : c.expression;
  });
  // distinct first, then the text, and materialized: DuckDB would otherwise cast every row before the distinct
  const ctes = wide.map((w) => `${w.alias} as materialized (select k, k::varchar as v from (select distinct ${ident(w.column.name)} as k from ${view}))`);
  const joins = wide.map((w) => `left join ${w.alias} on ${w.alias}.k = t.${ident(w.column.name)}`);
  return `${ctes.length ? `with ${ctes.join(', ')} ` : ''}select ${expressions.join(', ')} from ${view} as t${joins.map((j) => ` ${j}`).join('')}`;
}

/** Fingerprint the view's slices. exportedAt feeds the exported_at column. */
export async function stageRelation(store: Store, relation: MirroredRelation, exportedAt: string): Promise<StagedRelation> {
  const described = await store.all<{ column_name: string; column_type: string }>(`describe select * from ${ident(relation.view)}`);
  const columns = described.map((c) => mirroredColumn(relation.table, c.column_name, c.column_type));
  if (relation.exportedAt) columns.push({ name: 'exported_at', duckType: 'TIMESTAMP WITH TIME ZONE', pgType: 'timestamptz', expression: `$1::timestamptz as exported_at` });
  const rowsOf = `(${projection({ relation, columns })}) as t`;
  const params = relation.exportedAt ? [exportedAt] : undefined;
  const slices = new Map<string, Slice>();
  let rows = 0;
  if (relation.grain === 'day') {
    const found = await store.all<{ account: string | null; day: string | null; n: string; fp: string }>(
      `select account, day::varchar as day, count(*)::varchar as n, sum(hash(t))::varchar as fp from ${rowsOf} group by all`,
      params,
    );
    for (const s of found) {
      // the slice key decides what is deleted and rewritten: a row without one could never be replaced
      if (s.account === null || s.day === null) throw new StoreError(`export postgres: ${relation.view} has rows without an account or day; they cannot be mirrored day by day`);
      slices.set(sliceKey(s.account, s.day), { account: s.account, day: s.day, rows: Number(s.n), fingerprint: `${s.n}:${s.fp}` });
      rows += Number(s.n);
    }
  } else {
    const [s] = await store.all<{ n: string; fp: string }>(`select count(*)::varchar as n, coalesce(sum(hash(t)), 0)::varchar as fp from ${rowsOf}`, params);
    rows = Number(s!.n);
    slices.set(sliceKey(null, null), { account: null, day: null, rows, fingerprint: `${s!.n}:${s!.fp}` });
  }
  return { relation, columns, slices, rows, exportedAt };
}

/** Write the rows of the given slices (all of them for 'all') as headerless CSV, the form COPY … (format csv) reads. */
export async function writeSlicesCsv(store: Store, staged: StagedRelation, slices: readonly Slice[] | 'all', file: string): Promise<void> {
  const target = quotedString(file);
  if (slices === 'all' || staged.relation.grain === 'whole') {
    await store.run(`copy (${projection(staged)}) to ${target} (format csv, header false)`, staged.relation.exportedAt ? [staged.exportedAt] : undefined);
    return;
  }
  await store.run(`create or replace temp table ${KEYS} (account varchar, day date)`);
  await store.run(`insert into ${KEYS} select unnest($1::varchar[]), unnest($2::varchar[])::date`, [
    listValue(slices.map((s) => s.account!)),
    listValue(slices.map((s) => s.day!)),
  ]);
  await store.run(`copy (${projection(staged)} semi join ${KEYS} as k using (account, day)) to ${target} (format csv, header false)`);
  await store.run(`drop table ${KEYS}`);
}
