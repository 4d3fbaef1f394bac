// Versioned migrations: sql/schema/NNN_name.sql, each applied once, in order, inside one transaction with its
// record in _meta_schema_version. Opening an older file brings it up to date; a newer file is refused.
import { StoreError } from '../util/errors.ts';
import type { Store } from './store.ts';
import { readSqlFolder } from '../transform/sql-files.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(): Migration[] {
  return readSqlFolder('schema').map((f) => {
    const m = /^(\d{3})_(.+)$/.exec(f.name);
    if (!m) throw new StoreError(`migration file ${f.path} must be named NNN_name.sql`);
    return { version: Number(m[1]), name: m[2]!, sql: f.sql };
  });
}

export async function schemaVersion(store: Store): Promise<number> {
  const exists = await store.one(
    `select 1 from information_schema.tables where table_name = '_meta_schema_version'`,
  );
  if (!exists) return 0; // a new, empty database
  const row = await store.one<{ v: number | null }>(`select max(version) as v from _meta_schema_version`);
  return row?.v ?? 0;
}

export async function migrate(store: Store): Promise<number[]> {
  await store.run(
    `create table if not exists _meta_schema_version (version integer primary key, name varchar not null, applied_at timestamptz not null default current_timestamp)`,
  );
  const current = await schemaVersion(store);
  const migrations = listMigrations();
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new StoreError(
      `database ${store.path} has schema version ${current}, newer than this gpuledger knows (${latest}); upgrade gpuledger`,
    );
  }
  // every migration not yet recorded, in order – not only those above the highest: migrations written side by side
  // (on branches merged in any order) may land below one a database already has
  const done = new Set((await store.all<{ version: number }>('select version from _meta_schema_version')).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    try {
      await store.transaction(async () => {
        await store.run(m.sql);
        await store.run(`insert into _meta_schema_version (version, name) values ($1, $2)`, [m.version, m.name]);
      });
    } catch (e) {
      throw new StoreError(`migration ${m.version}_${m.name} failed: ${(e as Error).message.split('\n')[0]}`, { cause: e });
    }
    applied.push(m.version);
  }
  return applied;
}
