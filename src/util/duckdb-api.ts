// The one place the DuckDB client is loaded, with require(): it is a CommonJS package of ~120 files, and importing
// it from ESM makes Node's lexer parse each of them for its export names on every start (measured: 160 ms by
// `import`, 75 ms by `require`, of a CLI start of ~0.35 s). Every module takes DuckDB's values from here; types may
// still come from '@duckdb/node-api' directly (they cost nothing at run time).
import { createRequire } from 'node:module';
import type * as DuckDB from '@duckdb/node-api';

const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDB;

export const {
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  LIST,
  StatementType,
  VARCHAR,
  dateValue,
  decimalValue,
  listValue,
  quotedIdentifier,
  quotedString,
  timestampTZValue,
} = duckdb;

export type DuckDBConnection = DuckDB.DuckDBConnection;
export type DuckDBDateValue = DuckDB.DuckDBDateValue;
export type DuckDBDecimalValue = DuckDB.DuckDBDecimalValue;
export type DuckDBInstance = DuckDB.DuckDBInstance;
export type DuckDBTimestampTZValue = DuckDB.DuckDBTimestampTZValue;
export type DuckDBTimestampValue = DuckDB.DuckDBTimestampValue;
export type DuckDBTypeId = DuckDB.DuckDBTypeId;
export type StatementType = DuckDB.StatementType;
export type { DuckDBResult, DuckDBType, DuckDBValue } from '@duckdb/node-api';
