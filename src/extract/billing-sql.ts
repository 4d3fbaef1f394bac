// The SQL that stages and checks one billing page, derived from the source's declaration (src/model/billing-sources/): the
// column list of read_json, the staging select and the checks. Generated here rather than kept in .sql files because
// every part of it is a list of the declaration's fields – written out per source, it would repeat them six times.
import { quotedIdentifier, quotedString } from '../util/duckdb-api.ts';
import type { BillingSourceDef } from '../model/index.ts';

/** The raw tables' type of an API amount. */
const AMOUNT_TYPE = 'DECIMAL(18,6)';

/**
 * read_json parses a JSON number as a double before any column type sees it (DuckDB 1.5.5: 9999999999.999999 is read
 * as 9999999999.999998, 123456789012.123455 as …456, whether the column is DECIMAL, VARCHAR or JSON). A double keeps
 * 15 significant digits, so amounts below 1e9 with six decimals land exactly; a larger one fails the page rather than
 * being stored rounded (the old JavaScript path had the same bound, through JSON.parse).
 */
export const EXACT_BELOW = 1e9;

/** The API fields of a record, in the raw table's order. */
export function recordFields(def: BillingSourceDef): string[] {
  return ['startTime', 'endTime', ...(def.idField ? [def.idField] : []), ...def.amountFields];
}

/** read_json over a spooled records array; `amountType` JSON is the error path's re-read (see castFailureSql). */
export function readRecordsSql(def: BillingSourceDef, file: string, bytes: number, amountType = AMOUNT_TYPE): string {
  const columns = recordFields(def).map((f) => `${quotedString(f)}: ${quotedString(def.amountFields.includes(f) ? amountType : 'VARCHAR')}`);
  // one record is far smaller than the page; the bound only has to admit the largest record, and the page is one
  const maxObject = Math.max(16 << 20, bytes + 1);
  return `read_json(${quotedString(file)}, format = 'array', columns = {${columns.join(', ')}}, maximum_object_size = ${maxObject})`;
}

/** The staging table of one page, rowid = record index: the API's fields cast to the raw table's columns. */
export function stagePageSql(def: BillingSourceDef, stage: string, file: string, bytes: number): string {
  const cols = [
    '$account::varchar as account',
    '$size::varchar as bucket_size',
    // try_cast: a time that does not parse becomes null and is named by the checks, not by a bare cast error
    `try_cast("startTime" as timestamptz) as start_time`,
    `try_cast("endTime" as timestamptz) as end_time`,
    ...(def.idField ? [`${quotedIdentifier(def.idField)} as ${def.idColumn}`] : []),
    ...def.amounts.map((a) => `${quotedIdentifier(a.field)} as ${a.column}`),
    '$load::varchar as _load_id',
    '$at::timestamptz as _extracted_at',
  ];
  return `create or replace temp table ${stage} as select ${cols.join(', ')} from ${readRecordsSql(def, file, bytes)}`;
}

/** One row of what the checks need: the first record index failing each rule, the count and the sums. */
export function checkPageSql(def: BillingSourceDef, stage: string): string {
  const firstWhere = (name: string, cond: string) => `(min(rowid) filter (where ${cond}))::varchar as ${quotedIdentifier(name)}`;
  const parts = [
    'count(*)::varchar as n',
    firstWhere('missing:startTime', 'start_time is null'),
    firstWhere('missing:endTime', 'end_time is null'),
    ...(def.idField ? [firstWhere(`missing:${def.idField}`, `${def.idColumn} is null`), firstWhere(`empty:${def.idField}`, `${def.idColumn} = ''`)] : []),
    ...def.amounts.map((a) => firstWhere(`missing:${a.field}`, `${a.column} is null`)),
    ...def.amounts.map((a) => firstWhere(`inexact:${a.field}`, `abs(${a.column}) >= ${EXACT_BELOW}`)),
    firstWhere('outside', 'start_time < $ws::timestamptz or end_time > $we::timestamptz'),
    ...def.amounts.map((a) => `sum(${a.column})::decimal(38,6)::varchar as ${quotedIdentifier(`sum:${a.field}`)}`),
    ...(def.idColumn ? [`count(distinct ${def.idColumn})::varchar as unique_ids`] : []),
  ];
  return `select ${parts.join(', ')} from ${stage}`;
}

/** Error path only: per amount field, the first record whose value is not a number DECIMAL(18,6) holds. */
export function castFailureSql(def: BillingSourceDef, file: string, bytes: number): string {
  const firsts = def.amountFields.map(
    (f) => `(min(i) filter (where ${quotedIdentifier(f)} is not null and try_cast(${quotedIdentifier(f)}::varchar as ${AMOUNT_TYPE}) is null))::varchar as ${quotedIdentifier(f)}`,
  );
  return `with r as (select row_number() over () - 1 as i, * from ${readRecordsSql(def, file, bytes, 'JSON')}) select ${firsts.join(', ')} from r`;
}
