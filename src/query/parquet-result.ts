// `query --format parquet`: the result written by DuckDB's COPY, so every column keeps its exact type (a
// DECIMAL(18,6) stays DECIMAL(18,6), a TIMESTAMPTZ a UTC-adjusted timestamp). The user's SQL ran in the sandbox,
// which writes no file (sandbox.ts), so the rows are handed – as DuckDB's own value objects, never through JSON or a
// double – to a private in-memory DuckDB that holds nothing else and writes only the checked output's temporary file.
import { rmSync } from 'node:fs';
import { moveIntoPlace, temporaryBeside } from '../outputs/atomic-file.ts';
import { DuckDBInstance, quotedIdentifier, quotedString } from '../util/duckdb-api.ts';
import type { TypedResult } from './run-query.ts';

/** Write `result` to `target` (already checked by checkFileOutput) as one Parquet file, atomically. */
export async function writeParquetResult(result: TypedResult, target: string, dbPath?: string): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const tmp = temporaryBeside(target, dbPath);
  try {
    // two columns of a result may share a name (select 1 as a, 2 as a); a table may not, so the table's are
    // positional and COPY names them back as the result did
    const columns = result.types.map((type, i) => `c${i} ${type.toString()}`).join(', ');
    await connection.run(`create table result (${columns})`);
    const appender = await connection.createAppender('result');
    for (const row of result.rows) {
      row.forEach((value, i) => appender.appendValue(value, result.types[i]));
      appender.endRow();
    }
    appender.closeSync();
    const named = result.names.map((name, i) => `c${i} as ${quotedIdentifier(name)}`).join(', ');
    await connection.run(`copy (select ${named} from result) to ${quotedString(tmp)} (format parquet, compression zstd)`);
    moveIntoPlace(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
