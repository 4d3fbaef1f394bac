// What applying views and materialising need of a database: a connection that runs SQL and reads rows exactly
// (DECIMAL, BIGINT and timestamps as strings – STYLE.md §5). Declared here, below the store, so that the store can
// apply the views and refresh the tables when it opens a file or publishes one; a Store is a SqlSession.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

export type Row = Record<string, unknown>;
export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

export interface SqlSession {
  readonly connection: DuckDBConnection;
  /** Rows as plain objects, DECIMAL/BIGINT/timestamps as strings (exact). */
  all<T extends Row = Row>(sql: string, params?: Params): Promise<T[]>;
  /** The first row, or undefined. */
  one<T extends Row = Row>(sql: string, params?: Params): Promise<T | undefined>;
  run(sql: string, params?: Params): Promise<void>;
  /** Run fn inside BEGIN … COMMIT; any throw rolls everything back and rethrows. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}
