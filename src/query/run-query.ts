// `gpuledger query`: locks the connection into the sandbox, checks that the SQL only reads, optionally pins
// report_clock with gpuledger_as_of, runs it and returns its result with its column kinds – whole
// (runReadOnlyQuery), or chunk by chunk as DuckDB produces it (streamReadOnlyQuery: serve's SQL page, which must not
// hold a large answer in memory). One statement only: the client reads one result, so a second one would be dropped
// without a word (issue 26 §7).
import { JsonDuckDBValueConverter, type DuckDBResult, type DuckDBType, type DuckDBValue } from '../util/duckdb-api.ts';
import type { Column, Table } from '../util/table-text.ts';
import type { Store } from '../store/database.ts';
import { columnsOf } from './column-kinds.ts';
import { assertReadOnly } from './read-only-guard.ts';
import { isSandboxRefusal, SandboxError } from './sandbox-error.ts';
import { enterSandbox, hasGrants, NO_GRANTS, type ReadGrants, type SandboxLimits } from './sandbox.ts';
import { SeveralStatementsError, SqlError } from './sql-error.ts';
import { DatabaseDamagedError, isDamagedDatabase } from '../util/errors.ts';

export interface QueryOptions {
  /** RFC 3339 instant for report_clock (SET VARIABLE gpuledger_as_of), already validated. */
  asOf?: Date;
  /** Files and folders the SQL may read besides the database (--allow-read). */
  allowRead?: ReadGrants;
  /** Memory and threads the store's DuckDB instance may use. */
  limits?: SandboxLimits;
}

async function enterAndCheck(store: Store, sql: string, options: QueryOptions): Promise<void> {
  if (!store.readOnly) throw new Error('a sandboxed query needs a store opened read-only'); // a programming error
  const grants = options.allowRead ?? NO_GRANTS;
  await enterSandbox(store.connection, grants, options.limits);
  // every statement is checked first, so a writing one is named as such wherever it stands
  const statements = await assertReadOnly(store.connection, sql, { fileGrants: hasGrants(grants) });
  if (statements > 1) throw new SeveralStatementsError(statements);
  if (options.asOf) {
    // our own statement, with a bound parameter: the variable report_clock reads (views-contract.md)
    await store.connection.run('set variable gpuledger_as_of = $1::timestamptz', [options.asOf.toISOString()]);
  }
}

function queryError(e: unknown, store: Store, sql: string): Error {
  if (isDamagedDatabase(e)) return new DatabaseDamagedError(store.path, e); // not the SQL's fault: say how to rebuild
  return isSandboxRefusal(e) ? new SandboxError(e) : SqlError.from(e, sql);
}

/** Once per store: the sandbox locks the configuration of the store's DuckDB instance for good. */
export async function runReadOnlyQuery(store: Store, sql: string, options: QueryOptions = {}): Promise<Table> {
  await enterAndCheck(store, sql, options);
  try {
    const reader = await store.connection.runAndReadAll(sql);
    return { columns: columnsOf(reader.columnNames(), reader.columnTypes()), rows: reader.getRowsJson() };
  } catch (e) {
    throw queryError(e, store, sql);
  }
}

/** A result with DuckDB's own types and values, for the binary formats that keep them (parquet-result.ts, xlsx). */
export interface TypedResult {
  names: string[];
  types: DuckDBType[];
  rows: DuckDBValue[][];
}

/** runReadOnlyQuery, its values as DuckDB's value objects (a DECIMAL keeps its width and scale), once per store. */
export async function runReadOnlyQueryTyped(store: Store, sql: string, options: QueryOptions = {}): Promise<TypedResult> {
  await enterAndCheck(store, sql, options);
  try {
    const reader = await store.connection.runAndReadAll(sql);
    return { names: reader.columnNames(), types: reader.columnTypes(), rows: reader.getRows() };
  } catch (e) {
    throw queryError(e, store, sql);
  }
}

export interface QueryStream {
  columns: Column[];
  /** The rows in DuckDB's chunks (up to 2,048 rows each), values exactly as runReadOnlyQuery gives them. */
  chunks(): AsyncGenerator<unknown[][], void, undefined>;
}

/**
 * runReadOnlyQuery, its rows read one chunk at a time when asked for: DuckDB computes the next chunk only when the
 * previous one is taken, so a caller that stops early (a page's first rows) or waits (a slow download) holds one
 * chunk. Once per store, as runReadOnlyQuery.
 */
export async function streamReadOnlyQuery(store: Store, sql: string, options: QueryOptions = {}): Promise<QueryStream> {
  await enterAndCheck(store, sql, options);
  let result: DuckDBResult;
  try {
    result = await store.connection.stream(sql);
  } catch (e) {
    throw queryError(e, store, sql);
  }
  return {
    columns: columnsOf(result.columnNames(), result.columnTypes()),
    async *chunks() {
      for (;;) {
        let chunk;
        try {
          chunk = await result.fetchChunk();
        } catch (e) {
          throw queryError(e, store, sql);
        }
        if (!chunk || chunk.rowCount === 0) return;
        yield chunk.convertRows(JsonDuckDBValueConverter);
      }
    },
  };
}
