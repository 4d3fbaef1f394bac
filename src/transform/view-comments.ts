// DuckDB's catalog says what each view is: COMMENT ON VIEW with the one line of its header (view-descriptions.ts) and
// COMMENT ON COLUMN for the columns whose meaning is said once in column-descriptions.ts – what DBeaver and
// duckdb_views()/duckdb_columns() in any client show a reader who never opens sql/. Internal views say they are internal.
// `create or replace view` drops a view's comments, so they are written right after the views are (re)created.
import { quotedIdentifier, quotedString } from '../util/duckdb-api.ts';
import { COLUMN_DESCRIPTIONS } from './column-descriptions.ts';
import type { SqlSession } from './sql-session.ts';
import { isInternalView, oneLineDescription } from './view-descriptions.ts';

/** Bumped when what is commented changes, so databases whose views are otherwise unchanged get the new comments. */
export const VIEW_COMMENTS_VERSION = 1;


export async function commentViews(store: SqlSession, views: readonly { name: string; description: string }[]): Promise<void> {
  for (const v of views) {
    const line = oneLineDescription(v.description);
    await store.run(`comment on view ${v.name} is ${quotedString(isInternalView(v.name) ? `Internal, may change in any release: ${line}` : line)}`);
  }
  const names = views.filter((v) => !isInternalView(v.name)).map((v) => quotedString(v.name));
  if (names.length === 0) return;
  const columns = await store.all<{ view: string; column: string }>(
    `select table_name as view, column_name as column from duckdb_columns()
      where schema_name = 'main' and table_name in (${names.join(', ')}) order by all`,
  );
  for (const c of columns) {
    const text = Object.hasOwn(COLUMN_DESCRIPTIONS, c.column) ? COLUMN_DESCRIPTIONS[c.column] : undefined;
    if (text !== undefined) await store.run(`comment on column ${c.view}.${quotedIdentifier(c.column)} is ${quotedString(text)}`);
  }
}
