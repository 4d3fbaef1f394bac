// DuckDB column types → PostgreSQL column types, and how each column travels in the CSV that COPY reads. Money keeps
// its exact type: DECIMAL(p,s) becomes numeric(p,s) with the same scale, and DuckDB writes DECIMAL digits exactly, so
// PostgreSQL holds the same micro-dollars. Lists become jsonb (DuckDB's to_json), which every BI tool can show. Text
// compares byte by byte (collation "C"), as DuckDB compares strings: the same ORDER BY in both, whatever the server's
// locale – and indexes on text build several times faster than under a linguistic collation.
import { quotedIdentifier } from '../../util/duckdb-api.ts';
import { StoreError } from '../../util/errors.ts';

export interface MirroredColumn {
  name: string;
  duckType: string;
  pgType: string;
  /** The DuckDB expression that produces the CSV field (the column itself, or a conversion). */
  expression: string;
}

const SIMPLE: Record<string, string> = {
  VARCHAR: 'text collate "C"',
  BOOLEAN: 'boolean',
  TINYINT: 'smallint',
  SMALLINT: 'smallint',
  INTEGER: 'integer',
  BIGINT: 'bigint',
  UTINYINT: 'smallint',
  USMALLINT: 'integer',
  UINTEGER: 'bigint',
  UBIGINT: 'numeric(20,0)',
  HUGEINT: 'numeric(39,0)',
  UHUGEINT: 'numeric(39,0)',
  FLOAT: 'real',
  DOUBLE: 'double precision',
  DATE: 'date',
  TIMESTAMP: 'timestamp',
  'TIMESTAMP WITH TIME ZONE': 'timestamptz',
  INTERVAL: 'interval',
  JSON: 'jsonb',
  UUID: 'uuid',
};

/** A column name as a quoted identifier: DuckDB's quoter, the same quoting PostgreSQL reads. */
export const ident = quotedIdentifier;

export function mirroredColumn(relation: string, name: string, duckType: string): MirroredColumn {
  const simple = SIMPLE[duckType];
  if (simple) return { name, duckType, pgType: simple, expression: ident(name) };
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(duckType);
  if (decimal) return { name, duckType, pgType: `numeric(${decimal[1]},${decimal[2]})`, expression: ident(name) };
  if (duckType.endsWith('[]') || duckType.startsWith('STRUCT(') || duckType.startsWith('MAP(')) {
    return { name, duckType, pgType: 'jsonb', expression: `to_json(${ident(name)})::varchar as ${ident(name)}` };
  }
  // a new view column of a type not mapped here must be added above, not guessed
  throw new StoreError(`export postgres: ${relation}.${name} has DuckDB type ${duckType}, which has no PostgreSQL mapping yet`);
}
