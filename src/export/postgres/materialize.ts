// Every mirrored view is computed once per export, and so is every building block that two or more of the views an
// export reads share (report_clock, int_* …): each is materialized, in dependency order, as a temporary
// table of the same name. DuckDB looks names up in the temporary schema first – also inside view bodies – so the
// views computed after it read the table instead of computing the block again. Without this the ~25 mirrored views
// would compute cost_daily and the clock ~25 times. Blocks are materialized when the first table that needs them is
// prepared (ensure), so PostgreSQL can load one table while DuckDB computes the next. The temporary tables live in
// this connection only (the published file is open read-only) and are dropped at the end.
import type { Store } from '../../store/database.ts';
import { listViewFiles, orderViews, type ViewFile } from '../../transform/views.ts';
import { codeOnly } from '../../transform/sql-text.ts';
import { StoreError } from '../../util/errors.ts';
import { ident } from './column-types.ts';

/** The views a view reads: names after FROM or JOIN (transform/views.ts counts any mention, columns too – right for
 * ordering, too generous here: a column named cost is no read of the view cost). */
function readsOf(view: ViewFile, names: ReadonlySet<string>): string[] {
  const code = codeOnly(view.sql);
  return [...new Set([...code.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)/g)].map((m) => m[1]!))].filter((n) => n !== view.name && names.has(n));
}

// Shared, but cheaper to compute again than to copy: every raw billing record, which each reader narrows to a few
// columns and buckets that DuckDB pushes down (large account: 2.2 s of views with it inline, 2.9 s with it copied).
const INLINE = new Set(['int_billing_records']);

/**
 * Views that only list the columns of a table every writing session keeps up to date (the fct_* tables,
 * src/transform/materialize.ts): already computed, so they are read in place, mirrored or shared – a copy of the large
 * account's cost_daily costs 0.1–0.5 s and saves nothing. test/export/postgres-pieces.test.ts checks that each still
 * reads its table alone.
 */
export const READ_IN_PLACE: ReadonlyMap<string, string> = new Map([
  ['cost_daily', 'fct_cost_daily'],
  ['cost_allocated', 'fct_cost_allocated'],
  ['gpu_hours_daily', 'fct_gpu_hours_daily'],
]);

interface Plan {
  /** What to materialize, each after the views it reads. */
  order: string[];
  /** Every view each view reads, directly or not. */
  closure: Map<string, Set<string>>;
}

function plan(mirrored: readonly string[]): Plan {
  const files = orderViews(listViewFiles());
  const names = new Set(files.map((f) => f.name));
  const refs = new Map(files.map((f) => [f.name, readsOf(f, names)]));
  const closure = new Map<string, Set<string>>();
  // files are in dependency order, so every view's references are closed before the view itself
  for (const f of files) closure.set(f.name, new Set((refs.get(f.name) ?? []).flatMap((r) => [r, ...(closure.get(r) ?? [])])));
  const reachable = new Set(mirrored.flatMap((m) => [m, ...(closure.get(m) ?? [])]));
  const readers = new Map<string, number>();
  for (const name of reachable) for (const r of refs.get(name) ?? []) readers.set(r, (readers.get(r) ?? 0) + 1);
  const wanted = new Set([...mirrored, ...[...readers].filter(([name, n]) => n >= 2 && !INLINE.has(name)).map(([name]) => name)].filter((name) => !READ_IN_PLACE.has(name)));
  return { order: files.map((f) => f.name).filter((name) => wanted.has(name)), closure };
}

/** The views to materialize for the given mirrored views, each after the views it reads (READ_IN_PLACE never). */
export function viewsToMaterialize(mirrored: readonly string[]): string[] {
  return plan(mirrored).order;
}

export interface Materializer {
  /** Materialize what `view` needs (itself and the shared blocks below it) that is not materialized yet. */
  ensure(view: string): Promise<void>;
  /** Milliseconds spent computing views so far. */
  readonly ms: number;
  drop(): Promise<void>;
}

export async function createMaterializer(store: Store, mirrored: readonly string[]): Promise<Materializer> {
  const catalog = (await store.one<{ c: string }>('select current_database() as c'))!.c;
  const present = new Set((await store.all<{ v: string }>(`select view_name as v from duckdb_views() where schema_name = 'main' and not internal`)).map((r) => r.v));
  const missing = mirrored.filter((v) => !present.has(v));
  if (missing.length > 0) {
    throw new StoreError(`the database has no view ${missing.join(', ')} yet (it was last written by an older gpuledger); run gpuledger sync once, which brings its views up to date`);
  }
  const { order, closure } = plan(mirrored);
  const created: string[] = [];
  let ms = 0;
  return {
    get ms() {
      return ms;
    },
    async ensure(view) {
      const needed = closure.get(view) ?? new Set<string>();
      const started = performance.now();
      for (const name of order) {
        if ((name !== view && !needed.has(name)) || created.includes(name) || !present.has(name)) continue;
        await store.run(`create or replace temp table ${ident(name)} as select * from ${ident(catalog)}.main.${ident(name)}`);
        created.push(name);
      }
      ms += performance.now() - started;
    },
    async drop() {
      for (const name of created.reverse()) await store.run(`drop table if exists temp.main.${ident(name)}`);
    },
  };
}
