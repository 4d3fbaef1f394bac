// The PostgreSQL half of one mirrored table: create it from the columns DuckDB reported, delete the slices that are
// rewritten, stream a CSV file in with COPY FROM STDIN (never row INSERTs), and index it. Readers are never blocked:
// rows are deleted, not truncated (TRUNCATE would lock readers out until the commit), and a fresh table is indexed
// after its first load, which is far cheaper than maintaining the indexes row by row.
import { createHash } from 'node:crypto';
import { createReadStream, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { ident, type MirroredColumn } from './column-types.ts';
import { indexesOf, type MirroredRelation } from './relations.ts';
import type { Slice } from './slice-diff.ts';

/**
 * Settings for the export's transaction only (set_config(…, true)): CREATE INDEX sorts in maintenance_work_mem, and
 * at the server's default 64 MB the large account's cost_daily (183,186 rows, five indexes) sorts in several passes
 * on disk; 256 MB sorts each index in memory, a quarter less time. A parallel build shares it among its workers.
 */
export const LOAD_SETTINGS: Readonly<Record<string, string>> = { maintenance_work_mem: '256MB' };

export async function applyLoadSettings(client: ClientBase): Promise<void> {
  for (const [name, value] of Object.entries(LOAD_SETTINGS)) await client.query('select set_config($1, $2, true)', [name, value]);
}

/** How fingerprints are computed (stage.ts); bump it when that changes, and every table is rebuilt once. */
const FINGERPRINT_METHOD = 'count:sum(hash(row)) v2, wide integers hashed as numbers';

/** A hash of everything that shapes the table: a different one means drop and rebuild. */
export function tableDefinition(relation: MirroredRelation, columns: readonly MirroredColumn[], duckdbVersion: string): string {
  const shape = { columns: columns.map((c) => [c.name, c.pgType]), grain: relation.grain, indexes: indexesOf(relation), fingerprint: FINGERPRINT_METHOD, duckdb: duckdbVersion };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 32);
}

export async function createTable(client: ClientBase, relation: MirroredRelation, columns: readonly MirroredColumn[], description: string): Promise<void> {
  // one round trip: the statements run in the export's transaction all the same
  await client.query(
    [
      `drop table if exists ${ident(relation.table)}`,
      `create table ${ident(relation.table)} (${columns.map((c) => `${ident(c.name)} ${c.pgType}`).join(', ')})`,
      `comment on table ${ident(relation.table)} is ${client.escapeLiteral(description)}`,
    ].join(';\n'),
  );
}

/** The name of the index on these columns (PostgreSQL keeps 63 bytes of a name). */
export function indexName(relation: MirroredRelation, columns: readonly string[]): string {
  return `${relation.table}_${columns.join('_')}_idx`.slice(0, 63);
}

export async function createIndexes(client: ClientBase, relation: MirroredRelation): Promise<void> {
  const statements = indexesOf(relation).map((columns) => `create index if not exists ${ident(indexName(relation, columns))} on ${ident(relation.table)} (${columns.map(ident).join(', ')})`);
  // planner statistics now, rather than whenever autovacuum gets round to the new table; one round trip for all
  statements.push(`analyze ${ident(relation.table)}`);
  await client.query(statements.join(';\n'));
}

/** Delete the rows of the given day slices, or every row; returns how many went. */
export async function deleteSlices(client: ClientBase, relation: MirroredRelation, slices: readonly Slice[] | 'all'): Promise<number> {
  if (slices === 'all' || relation.grain === 'whole') return (await client.query(`delete from ${ident(relation.table)}`)).rowCount ?? 0;
  if (slices.length === 0) return 0;
  const result = await client.query(
    `delete from ${ident(relation.table)} as t using unnest($1::text[], $2::date[]) as s(account, day)
     where t.account = s.account and t.day = s.day`,
    [slices.map((s) => s.account), slices.map((s) => s.day)],
  );
  return result.rowCount ?? 0;
}

/** Stream headerless CSV files, in order, into the table as one COPY, each file removed once sent; returns the rows COPY reported. */
export async function copyCsv(client: ClientBase, relation: MirroredRelation, columns: readonly MirroredColumn[], files: AsyncIterable<string>): Promise<number> {
  const stream = client.query(copyFrom(`copy ${ident(relation.table)} (${columns.map((c) => ident(c.name)).join(', ')}) from stdin with (format csv)`));
  await pipeline(async function* () {
    for await (const file of files) {
      yield* createReadStream(file, { highWaterMark: 1 << 20 });
      rmSync(file, { force: true });
    }
  }, stream);
  return stream.rowCount ?? 0;
}
