// Views are `create or replace`, applied on a writing open whenever a file changed since they were last created
// (_meta_applied_views keeps the hash), so a change to a .sql file takes effect the next time gpuledger writes. They are applied in dependency order: each file's references to other view names (the set
// of names is known from the file names) are read from its text and sorted topologically, so a broken view is
// reported by its own file name – never by a view that merely reads it – and file names need not encode order.
import { createHash } from 'node:crypto';
import { StoreError } from '../util/errors.ts';
import type { SqlSession } from './sql-session.ts';
import { headerComment, readSqlFolder, SQL_DIR, type SqlFile } from './sql-files.ts';
import { layerViolations, SqlParseError, type SerializeSql, type SqlObjects } from './sql-layers.ts';
import { codeOnly } from './sql-text.ts';
import { commentViews, VIEW_COMMENTS_VERSION } from './view-comments.ts';

export const VIEW_LAYERS = ['staging', 'intermediate', 'marts', 'reports'] as const;

/** Where a file of views or macros lives: a layer of sql/views, or sql/macros (layer-free: sql-layers.ts). */
export type ViewFolder = (typeof VIEW_LAYERS)[number] | 'macros';

export interface ViewFile extends SqlFile {
  layer: ViewFolder;
  /** The header comment: what one row is. */
  description: string;
}

/**
 * Every macro file (sql/macros), then every view file by layer (staging → intermediate → marts → reports), each by
 * name; sqlDir replaces the repository's sql/ (tests). Macros come first, but DuckDB binds a macro's body when it is
 * created, so one that reads a view is still created after it: orderViews sorts both kinds together.
 */
export function listViewFiles(sqlDir: string = SQL_DIR): ViewFile[] {
  const described = (layer: ViewFolder) => (f: SqlFile): ViewFile => ({ ...f, layer, description: headerComment(f.sql) });
  return [
    ...readSqlFolder('macros', sqlDir).map(described('macros')),
    ...VIEW_LAYERS.flatMap((layer) => readSqlFolder(`views/${layer}`, sqlDir).map(described(layer))),
  ];
}

const fileOf = (v: ViewFile) => (v.layer === 'macros' ? `macros/${v.name}.sql` : `${v.layer}/${v.name}.sql`);

/** The names of the other views a view's text mentions (a CTE or column of the same name counts too – harmless). */
export function viewReferences(view: ViewFile, names: ReadonlySet<string>): string[] {
  const words = new Set(codeOnly(view.sql).match(/[a-z_][a-z0-9_]*/g) ?? []);
  return [...words].filter((w) => w !== view.name && names.has(w)).sort();
}

/** The views in an order where each comes after every view it reads; a cycle is an error naming its files. */
export function orderViews(views: ViewFile[]): ViewFile[] {
  const byName = new Map(views.map((v) => [v.name, v]));
  for (const v of views) {
    if (byName.get(v.name) !== v) throw new StoreError(`two view files are named ${v.name}.sql; a view name must be unique across sql/views`);
  }
  const names = new Set(byName.keys());
  const ordered: ViewFile[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (v: ViewFile, path: ViewFile[]): void => {
    if (state.get(v.name) === 'done') return;
    if (state.get(v.name) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(v)), v].map(fileOf).join(' → ');
      throw new StoreError(`views read each other in a cycle: ${cycle}; break it by moving the shared part into an int_ view`);
    }
    state.set(v.name, 'visiting');
    for (const ref of viewReferences(v, names)) visit(byName.get(ref)!, [...path, v]);
    state.set(v.name, 'done');
    ordered.push(v);
  };
  // depth first from the files in layer and name order, so the order is the same on every run
  for (const v of views) visit(v, []);
  return ordered;
}

/** A hash over every view file's name and text: what the database's views were created from. */
export function viewsHash(views: readonly ViewFile[]): string {
  const hash = createHash('sha256');
  hash.update(`comments ${VIEW_COMMENTS_VERSION}\n`);
  for (const v of views) hash.update(`${v.layer}/${v.name}\n${v.sql}\n`);
  return hash.digest('hex');
}

async function upToDate(store: SqlSession, hash: string, count: number): Promise<boolean> {
  const table = await store.one(`select 1 as x from duckdb_tables() where table_name = '_meta_applied_views' and schema_name = 'main'`);
  if (!table) return false;
  const row = await store.one<{ views_hash: string; view_count: number }>('select views_hash, view_count from _meta_applied_views');
  if (row?.views_hash !== hash) return false;
  // a view dropped by hand since is created again
  const present = await store.one<{ n: string }>(`select count(*)::varchar n from duckdb_views() where schema_name = 'main' and not internal`);
  return Number(present?.n) >= count;
}

/** The view names by layer and the macros' text: what the layer rule classifies a reference by. */
export function sqlObjects(views: readonly ViewFile[]): SqlObjects {
  return {
    views: new Map(views.filter((v) => v.layer !== 'macros').map((v) => [v.name, v.layer as (typeof VIEW_LAYERS)[number]])),
    macros: new Map(views.filter((v) => v.layer === 'macros').map((v) => [v.name, v.sql])),
  };
}

/** json_serialize_sql on the store's own connection: the parser of the database the views are made for. */
export function storeSerializer(store: SqlSession): SerializeSql {
  return async (select) => (await store.one<{ j: string }>('select json_serialize_sql($1::varchar) as j', [select]))!.j;
}

/** Refuse a view that reads past its layer (sql-layers.ts), naming the file and the reference. */
export async function checkViewLayers(views: readonly ViewFile[], serialize: SerializeSql): Promise<void> {
  const objects = sqlObjects(views);
  // a macro reads on behalf of its callers: what it reads is held to the rule of each view that calls it
  for (const view of views.filter((v) => v.layer !== 'macros')) {
    let first;
    try {
      [first] = await layerViolations(view.sql, view.layer as (typeof VIEW_LAYERS)[number], objects, serialize);
    } catch (e) {
      // said as applying the file would say it: the file and DuckDB's own words
      if (e instanceof SqlParseError) throw new StoreError(`view ${fileOf(view)} failed: Parser Error: ${e.parserMessage}`, { cause: e });
      throw e;
    }
    if (first) throw new StoreError(`view ${fileOf(view)} ${first.message}`);
  }
}

/** Create or replace every view in dependency order, unless the files are the ones the database was built from. */
export async function applyViews(store: SqlSession, sqlDir: string = SQL_DIR): Promise<void> {
  const files = listViewFiles(sqlDir);
  const views = orderViews(files);
  const hash = viewsHash(views);
  // macro files (int_*_in, int_runway_hours, int_change_pct) create no view: only view files are counted against duckdb_views()
  const viewFiles = views.filter((v) => /^\s*create\s+or\s+replace\s+view\b/im.test(codeOnly(v.sql)));
  const viewCount = viewFiles.length;
  // files the database's views were already made from were checked then
  if (await upToDate(store, hash, viewCount)) return;
  await checkViewLayers(files, storeSerializer(store));
  // one transaction: each statement on its own would commit (and write the WAL) once per view and per comment – most
  // of a fresh file's first open – and a view that fails leaves the views as they were, not half replaced
  await store.transaction(async () => {
    for (const view of views) {
      try {
        await store.run(view.sql);
      } catch (e) {
        const first = e instanceof Error ? e.message.split('\n')[0] : String(e);
        throw new StoreError(`view ${fileOf(view)} failed: ${first}`, { cause: e });
      }
    }
    await commentViews(store, viewFiles);
    const recorded = await store.one(`select 1 as x from duckdb_tables() where table_name = '_meta_applied_views' and schema_name = 'main'`);
    if (recorded) {
      await store.run('delete from _meta_applied_views');
      await store.run('insert into _meta_applied_views values ($1, $2, now())', [hash, viewCount]);
    }
  });
}
