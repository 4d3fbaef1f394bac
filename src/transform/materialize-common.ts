// What every materialised table's refresh shares: the SQL of sql/materialize/ (read once per process), and
// _meta_materialized, which records what each table was last computed from.
import type { SqlSession as Store } from './sql-session.ts';
import { readSqlFolder, type SqlFile } from './sql-files.ts';

let files: Map<string, SqlFile> | undefined;

export function sql(name: string): string {
  files ??= new Map(readSqlFolder('materialize').map((f) => [f.name, f]));
  const file = files.get(name);
  if (!file) throw new Error(`sql/materialize/${name}.sql is missing`);
  return file.sql;
}

/** Every file of sql/materialize/, by name: what the refresh's own hash covers. */
export function materializeFiles(): ReadonlyMap<string, SqlFile> {
  sql('changed_cost');
  return files!;
}

export async function count(store: Store, query: string): Promise<number> {
  return Number((await store.one<{ n: string }>(`select count(*)::varchar as n from (${query})`))?.n ?? 0);
}

/** Run an insert or delete and return how many rows it wrote or removed (DuckDB says so): no count of the table before and after. */
export async function rowsChanged(store: Store, statement: string, params?: Parameters<Store['run']>[1]): Promise<number> {
  return Number((await store.one<{ Count: string }>(statement, params))?.Count ?? 0);
}

export async function storedHash(store: Store, table: string): Promise<string | undefined> {
  return (await store.one<{ inputs_hash: string }>(`select inputs_hash from _meta_materialized where name = $1`, [table]))?.inputs_hash;
}

export async function recordRefresh(store: Store, table: string, hash: string): Promise<void> {
  await store.run(`insert or replace into _meta_materialized values ($name, $hash, now(), (select count(*) from ${table}))`, { name: table, hash });
}
