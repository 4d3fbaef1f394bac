// Running a definition's SQL: period parameters bound as typed values (only those the text uses – DuckDB refuses
// extra ones), results read exactly (*Json readers: DECIMAL as strings), large results streamed chunk by chunk.
import { DuckDBTypeId, type DuckDBValue } from '../util/duckdb-api.ts';
import type { Store } from '../store/database.ts';
import { StoreError } from '../util/errors.ts';
import { sqlParameters } from './definition/index.ts';

export interface QueryColumn {
  name: string;
  typeId: DuckDBTypeId;
}

export interface QueryResult {
  columns: QueryColumn[];
  rows: unknown[][];
}

export type QueryParameters = Record<string, DuckDBValue>;

/** A query of a definition that DuckDB refused: names where it comes from and DuckDB's first line. */
export class ReportQueryError extends StoreError {}

function bound(sql: string, params: QueryParameters): QueryParameters | undefined {
  const used = sqlParameters(sql);
  if (used.length === 0) return undefined;
  return Object.fromEntries(used.map((p) => [p, params[p] ?? null]));
}

/** Trailing semicolons off, so the text can be wrapped as a subquery. */
export function bareSql(sql: string): string {
  return sql.trim().replace(/;\s*$/, '').trim();
}

function fail(where: string, e: unknown): never {
  const first = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  throw new ReportQueryError(`${where}: query failed: ${first}`, { cause: e });
}

export async function queryAll(store: Store, sql: string, params: QueryParameters, where: string): Promise<QueryResult> {
  try {
    const text = bareSql(sql);
    const reader = await store.connection.runAndReadAll(text, bound(text, params));
    const names = reader.columnNames();
    const types = reader.columnTypes();
    return { columns: names.map((name, i) => ({ name, typeId: types[i]!.typeId })), rows: reader.getRowsJson() as unknown[][] };
  } catch (e) {
    fail(where, e);
  }
}

/** Names and types of a query's columns without running it (LIMIT 0 plans it, reads nothing). */
export async function queryColumns(store: Store, sql: string, params: QueryParameters, where: string): Promise<QueryColumn[]> {
  const text = `select * from (\n${bareSql(sql)}\n) as q limit 0`;
  return (await queryAll(store, text, params, where)).columns;
}

/** A query's streaming result; a DuckDB error said as `where`'s. */
async function openStream(store: Store, sql: string, params: QueryParameters, where: string) {
  const text = bareSql(sql);
  try {
    return await store.connection.stream(text, bound(text, params));
  } catch (e) {
    fail(where, e);
  }
}

/** The chunks as read; an error while reading them said as `where`'s. */
async function* readChunks<T>(chunks: AsyncIterable<T>, where: string): AsyncGenerator<T> {
  try {
    for await (const rows of chunks) yield rows;
  } catch (e) {
    fail(where, e);
  }
}

/**
 * The rows of a query in DuckDB's chunks (2,048 rows), never the whole result in memory. No other query may run
 * on the store's connection until the generator is done (DuckDB invalidates a streaming result then).
 */
export async function* streamRows(store: Store, sql: string, params: QueryParameters, where: string): AsyncGenerator<unknown[][]> {
  const result = await openStream(store, sql, params, where);
  yield* readChunks(result.yieldRowsJson() as AsyncIterable<unknown[][]>, where);
}

/** Like streamRows, as DuckDB's value objects (no JSON text round trip; see cells/raw-values.ts). */
export async function* streamRawRows(store: Store, sql: string, params: QueryParameters, where: string): AsyncGenerator<DuckDBValue[][]> {
  const result = await openStream(store, sql, params, where);
  yield* readChunks(result.yieldRows(), where);
}

