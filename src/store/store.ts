// What a store is to its users: the connection, and helpers that read results exactly (DECIMAL, BIGINT and timestamps
// as strings – STYLE.md §5). A module of types only, so that what database.ts opens with (migrate.ts, views.ts) can
// name a Store without importing the module that opens it.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

export type Row = Record<string, unknown>;
export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

export interface Store {
  readonly path: string;
  readonly readOnly: boolean;
  readonly connection: DuckDBConnection;
  /** Rows as plain objects, DECIMAL/BIGINT/timestamps as strings (exact). */
  all<T extends Row = Row>(sql: string, params?: Params): Promise<T[]>;
  /** The first row, or undefined. */
  one<T extends Row = Row>(sql: string, params?: Params): Promise<T | undefined>;
  run(sql: string, params?: Params): Promise<void>;
  /** Run fn inside BEGIN … COMMIT; any throw rolls everything back and rethrows. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
