// How a DuckDB column prints: exact numbers (DECIMAL, 64/128-bit integers come back as strings), plain numbers,
// booleans, text, or nested values.
import { DuckDBTypeId, type DuckDBType } from '../util/duckdb-api.ts';
import type { Column, ColumnKind } from '../util/table-text.ts';

const EXACT = new Set([DuckDBTypeId.DECIMAL, DuckDBTypeId.BIGINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT, DuckDBTypeId.BIGNUM]);
const NUMBER = new Set([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
]);
const TEXT = new Set([
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.DATE,
  DuckDBTypeId.TIME,
  DuckDBTypeId.TIME_TZ,
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
  DuckDBTypeId.TIMESTAMP_TZ,
  DuckDBTypeId.INTERVAL,
  DuckDBTypeId.UUID,
  DuckDBTypeId.ENUM,
]);

export function columnKind(type: DuckDBType): ColumnKind {
  return typeIdKind(type.typeId);
}

/** The same from the type's id alone (a report query's columns keep only that). */
export function typeIdKind(typeId: DuckDBTypeId): ColumnKind {
  if (EXACT.has(typeId)) return 'exact-number';
  if (NUMBER.has(typeId)) return 'number';
  if (typeId === DuckDBTypeId.BOOLEAN) return 'boolean';
  if (TEXT.has(typeId)) return 'text';
  return 'other';
}

export function columnsOf(names: string[], types: DuckDBType[]): Column[] {
  return names.map((name, i) => ({ name, kind: columnKind(types[i]!) }));
}
