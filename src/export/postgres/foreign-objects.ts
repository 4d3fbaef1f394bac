// An export touches only what it created (issue 26 §2). Before any DDL, every name the export would create, drop or
// write in the target schema – its state tables (sql/postgres/), the mirrored tables and their indexes – is looked up
// in the catalog; one that is there but not gpuledger's is refused, naming it, and nothing is changed:
//   - a state table is ours when it is a table with the columns sql/postgres/ declares (a user's `_export_runs` of
//     another shape is not);
//   - a mirrored table is ours when it is a table that _export_tables (our bookkeeping) lists;
//   - an index is ours when it is an index on one of our mirrored tables.
// A view, a materialized view, a sequence … under one of these names is never ours: gpuledger creates only tables
// and indexes there.
import type { ClientBase } from 'pg';
import { readSqlFolder } from '../../transform/sql-files.ts';
import { ConfigError } from '../../util/errors.ts';
import { ident } from './column-types.ts';
import { indexName } from './mirror-table.ts';
import { indexesOf, type MirroredRelation } from './relations.ts';

interface Found {
  name: string;
  kind: string;
  /** For an index, the table it is on. */
  on: string | null;
  columns: string[];
}

const KIND: Record<string, string> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized view',
  i: 'index',
  I: 'index',
  S: 'sequence',
  f: 'foreign table',
  c: 'type',
};

/**
 * The columns of each state table as sql/postgres/ declares them: created as temporary tables inside a savepoint, read,
 * and rolled back. Undefined when the user may not create temporary tables (REVOKE TEMPORARY): then a table under the
 * name is taken as ours.
 */
async function declaredStateColumns(client: ClientBase, names: readonly string[]): Promise<Map<string, Set<string>> | undefined> {
  await client.query('savepoint gpuledger_declared_columns');
  try {
    // pg_temp first: the files' unqualified CREATE TABLE lands in this session's own temporary schema, never the target
    await client.query(`select set_config('search_path', 'pg_temp', true)`);
    for (const file of readSqlFolder('postgres')) await client.query(file.sql);
    const rows = await client.query<{ t: string; c: string }>(
      `select c.relname as t, a.attname as c from pg_class c join pg_attribute a on a.attrelid = c.oid
       where c.relnamespace = pg_my_temp_schema() and c.relname = any($1) and a.attnum > 0 and not a.attisdropped`,
      [names],
    );
    const declared = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
    for (const r of rows.rows) declared.get(r.t)?.add(r.c);
    return declared;
  } catch (e) {
    if ((e as { code?: string }).code !== '42501') throw e;
    return undefined;
  } finally {
    // the temporary tables and the search path set above go with the savepoint
    await client.query('rollback to savepoint gpuledger_declared_columns');
  }
}

/** The first object in `schema` under a name the export uses that gpuledger did not create, described; or undefined. */
export async function findForeignObject(client: ClientBase, schema: string, relations: readonly MirroredRelation[]): Promise<string | undefined> {
  const stateTables = readSqlFolder('postgres').map((f) => f.name);
  const indexes = relations.flatMap((r) => indexesOf(r).map((columns) => ({ name: indexName(r, columns), table: r.table })));
  const names = [...stateTables, ...relations.map((r) => r.table), ...indexes.map((i) => i.name)];
  const found = (
    await client.query<Found>(
      `select c.relname as name, c.relkind as kind, t.relname as on,
              coalesce(array(select a.attname::text from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '{}') as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_index x on x.indexrelid = c.oid
       left join pg_class t on t.oid = x.indrelid
       where n.nspname = $1 and c.relname = any($2)`,
      [schema, names],
    )
  ).rows;
  if (found.length === 0) return undefined;
  const byName = new Map(found.map((f) => [f.name, f]));
  const isTable = (f: Found) => f.kind === 'r' || f.kind === 'p';
  const describe = (f: Found) => `${KIND[f.kind] ?? 'object'} ${schema}.${f.name}`;

  const presentState = stateTables.filter((n) => byName.has(n));
  const declared = presentState.length > 0 ? await declaredStateColumns(client, presentState) : undefined;
  for (const name of presentState) {
    const f = byName.get(name)!;
    const columns = new Set(f.columns);
    if (!isTable(f) || [...(declared?.get(name) ?? [])].some((c) => !columns.has(c))) return describe(f);
  }
  // our bookkeeping, read only once it is known to be ours
  const listed = byName.has('_export_tables')
    ? new Set((await client.query<{ t: string }>(`select table_name as t from ${ident(schema)}._export_tables`)).rows.map((r) => r.t))
    : new Set<string>();
  for (const r of relations) {
    const f = byName.get(r.table);
    if (f && !(isTable(f) && listed.has(r.table))) return describe(f);
  }
  for (const i of indexes) {
    const f = byName.get(i.name);
    const ours = f && (f.kind === 'i' || f.kind === 'I') && f.on === i.table && byName.has(i.table);
    if (f && !ours) return describe(f);
  }
  return undefined;
}

/** Refuse, changing nothing, when the schema holds an object under one of our names that gpuledger did not create. */
export async function refuseForeignObjects(client: ClientBase, schema: string, relations: readonly MirroredRelation[]): Promise<void> {
  const foreign = await findForeignObject(client, schema, relations);
  if (foreign === undefined) return;
  const instead = schema === 'gpuledger' ? 'gpuledger_export' : 'gpuledger';
  throw new ConfigError(`--schema ${schema} already holds ${foreign} that gpuledger did not create; choose another --schema (e.g. ${instead}); nothing was exported`);
}
