// The DuckDB half of `export postgres`: each mirrored view – computed into a temporary table of its name
// (materialize.ts), or a column list over an fct_ table read in place – is fingerprinted per slice, and the slices to
// send are written as CSV for COPY. A slice's fingerprint is its row count and the sum of its rows' hashes:
// order-independent, and a repeated row counts twice (a XOR would cancel it). Rows are hashed as DuckDB holds them (a
// wide integer as a number); only the rows written are turned into text, so a re-export that sends one day turns one
// day. DuckDB's hash is deterministic but not promised across DuckDB versions; the version is part of a table's
// definition (definition.ts), so a new DuckDB rebuilds the tables once instead of comparing fingerprints it cannot
// compare.
import { listValue, quotedString } from '../../util/duckdb-api.ts';
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

const isWide = (c: MirroredColumn) => c.duckType === 'UHUGEINT';
const textOf = (i: number) => ident(`_gpuledger_text_${i}`);

/**
 * The decimal text of each distinct value of a UHUGEINT column (the subject key), as a temporary table (h: DuckDB's
 * hex of the value, v: its decimal text). DuckDB writes a UHUGEINT as text at some 300 µs a value (36 s for the large
 * account's 183,186 cost_daily rows; 0.7 s even for its 2,245 distinct subjects), its hex in no time: the decimal is
 * BigInt's, in JavaScript.
 */
async function wideTexts(store: Store, view: string, column: string, table: string): Promise<void> {
  const hexes = (await store.all<{ h: string }>(`select distinct hex(${ident(column)}) as h from ${ident(view)} where ${ident(column)} is not null`)).map((r) => r.h);
  await store.run(`create or replace temp table ${table} (h varchar, v varchar)`);
  if (hexes.length === 0) return;
  await store.run(`insert into ${table} select unnest($1::varchar[]), unnest($2::varchar[])`, [
    listValue(hexes),
    listValue(hexes.map((h) => BigInt(`0x${h}`).toString())),
  ]);
}

/** The rows as they are fingerprinted: the view's columns, lists as JSON, exported_at added where declared ($1). */
function hashedRows(staged: Pick<StagedRelation, 'relation' | 'columns'>): string {
  return `(select ${staged.columns.map((c) => (isWide(c) ? ident(c.name) : c.expression)).join(', ')} from ${ident(staged.relation.view)}) as t`;
}

/** The rows as they travel, from `filter` (a join restricting the view's rows, t): as hashed, wide integers as text. */
function sentRows(staged: Pick<StagedRelation, 'relation' | 'columns'>, filter = ''): string {
  const wide = staged.columns.filter(isWide);
  const expressions = staged.columns.map((c) => (isWide(c) ? `${textOf(wide.indexOf(c))}.v as ${ident(c.name)}` : c.expression));
  const joins = wide.map((c, i) => ` left join ${textOf(i)} on ${textOf(i)}.h = hex(t.${ident(c.name)})`);
  return `select ${expressions.join(', ')} from ${ident(staged.relation.view)} as t${filter}${joins.join('')}`;
}

/** Fingerprint the view's slices. exportedAt feeds the exported_at column. */
export async function stageRelation(store: Store, relation: MirroredRelation, exportedAt: string): Promise<StagedRelation> {
  const described = await store.all<{ column_name: string; column_type: string }>(`describe select * from ${ident(relation.view)}`);
  const columns = described.map((c) => mirroredColumn(relation.table, c.column_name, c.column_type));
  if (relation.exportedAt) columns.push({ name: 'exported_at', duckType: 'TIMESTAMP WITH TIME ZONE', pgType: 'timestamptz', expression: `$1::timestamptz as exported_at` });
  const rowsOf = hashedRows({ relation, columns });
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

/** The CSV of a table, written in parts: each part can be copied into PostgreSQL while DuckDB writes the next. */
export interface CsvParts {
  /** The files in order, each as soon as DuckDB has written it. */
  files(): AsyncIterable<string>;
  /** Settles when DuckDB is done with the table (every part written, or a failure). */
  done: Promise<void>;
}

/** Rows per CSV part: the large account's cost_daily (183,186 rows) goes in four. */
export const PART_ROWS = 50_000;

/** Split slices, in order, into runs of about partRows rows (a slice is never split). */
function partsOf(slices: readonly Slice[], partRows: number): Slice[][] {
  const parts: Slice[][] = [[]];
  let rows = 0;
  for (const s of slices) {
    if (rows >= partRows) {
      parts.push([]);
      rows = 0;
    }
    parts.at(-1)!.push(s);
    rows += s.rows;
  }
  return parts;
}

/**
 * Write the rows of the given slices as headerless CSV, the form COPY … (format csv) reads, in parts of about partRows
 * rows. Starts at once and returns before the parts are written: the caller may copy part 1 while part 2 is written,
 * and must await done before DuckDB stages the next table (one connection).
 */
export function writeCsvParts(store: Store, staged: StagedRelation, slices: readonly Slice[], path: (part: number) => string, partRows = PART_ROWS): CsvParts {
  const whole = staged.relation.grain === 'whole';
  const sorted = whole ? slices : [...slices].sort((a, b) => (a.account! < b.account! ? -1 : a.account! > b.account! ? 1 : a.day! < b.day! ? -1 : a.day! > b.day! ? 1 : 0));
  const parts = whole ? [slices] : partsOf(sorted, partRows);
  const written = parts.map(() => deferred<string>());
  // a part nobody reads (the COPY failed first) must not count as an unhandled rejection
  for (const w of written) w.promise.catch(() => {});
  const params = staged.relation.exportedAt ? [staged.exportedAt] : undefined;
  const wide = staged.columns.filter(isWide);
  const done = (async () => {
    let i = 0;
    try {
      for (const [n, c] of wide.entries()) await wideTexts(store, staged.relation.view, c.name, textOf(n));
      if (whole) {
        await store.run(`copy (${sentRows(staged)}) to ${quotedString(path(0))} (format csv, header false)`, params);
        written[i++]!.resolve(path(0));
        return;
      }
      await store.run(`create or replace temp table ${KEYS} (account varchar, day date, part integer)`);
      await store.run(`insert into ${KEYS} select unnest($1::varchar[]), unnest($2::varchar[])::date, unnest($3::integer[])`, [
        listValue(parts.flatMap((p) => p.map((s) => s.account!))),
        listValue(parts.flatMap((p) => p.map((s) => s.day!))),
        listValue(parts.flatMap((p, n) => p.map(() => n))),
      ]);
      for (; i < parts.length; i++) {
        const part = ` semi join (select account, day from ${KEYS} where part = ${i}) as k on k.account = t.account and k.day = t.day`;
        await store.run(`copy (${sentRows(staged, part)}) to ${quotedString(path(i))} (format csv, header false)`, params);
        written[i]!.resolve(path(i));
      }
    } catch (e) {
      for (; i < written.length; i++) written[i]!.reject(e);
      throw e;
    } finally {
      for (const n of wide.keys()) await store.run(`drop table if exists ${textOf(n)}`).catch(() => {});
      await store.run(`drop table if exists ${KEYS}`).catch(() => {});
    }
  })();
  return {
    async *files() {
      for (const w of written) yield await w.promise;
    },
    done,
  };
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (reason: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
