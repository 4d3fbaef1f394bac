// Views are `create or replace`, applied on every writing open, so a change to a .sql file takes effect the next
// time gpuledger writes. They are applied in dependency order: each file's references to other view names (the set
// of names is known from the file names) are read from its text and sorted topologically, so a broken view is
// reported by its own file name – never by a view that merely reads it – and file names need not encode order.
import { StoreError } from '../util/errors.ts';
import type { Store } from './database.ts';
import { headerComment, readSqlFolder, SQL_DIR, type SqlFile } from './sql-files.ts';

export const VIEW_LAYERS = ['staging', 'marts', 'reports'] as const;

export interface ViewFile extends SqlFile {
  layer: (typeof VIEW_LAYERS)[number];
  /** The header comment: what one row is. */
  description: string;
}

/** Every view file, by layer (staging → marts → reports) and name; sqlDir replaces the repository's sql/ (tests). */
export function listViewFiles(sqlDir: string = SQL_DIR): ViewFile[] {
  return VIEW_LAYERS.flatMap((layer) =>
    readSqlFolder(`views/${layer}`, sqlDir).map((f) => ({ ...f, layer, description: headerComment(f.sql) })),
  );
}

const fileOf = (v: ViewFile) => `${v.layer}/${v.name}.sql`;

/** The SQL without comments and string literals, lowercased: what is left names tables, views, columns and CTEs. */
function codeOnly(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase();
}

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

export async function applyViews(store: Store, sqlDir: string = SQL_DIR): Promise<void> {
  for (const view of orderViews(listViewFiles(sqlDir))) {
    try {
      await store.run(view.sql);
    } catch (e) {
      const first = e instanceof Error ? e.message.split('\n')[0] : String(e);
      throw new StoreError(`view ${fileOf(view)} failed: ${first}`, { cause: e });
    }
  }
}
