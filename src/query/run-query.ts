// `gpuledger query`: checks that the SQL only reads, optionally pins report_clock with gpuledger_as_of, runs it on a
// read-only connection and returns the last statement's result with its column kinds.
import type { Table } from '../cli/output.ts';
import type { Store } from '../store/database.ts';
import { columnsOf } from './column-kinds.ts';
import { assertReadOnly } from './read-only-guard.ts';
import { SqlError } from './sql-error.ts';

export interface QueryOptions {
  /** RFC 3339 instant for report_clock (SET VARIABLE gpuledger_as_of), already validated. */
  asOf?: Date;
}

export async function runReadOnlyQuery(store: Store, sql: string, options: QueryOptions = {}): Promise<Table> {
  await assertReadOnly(store.connection, sql);
  if (options.asOf) {
    // our own statement, with a bound parameter: the variable report_clock reads (views-contract.md)
    await store.connection.run('set variable gpuledger_as_of = $1::timestamptz', [options.asOf.toISOString()]);
  }
  try {
    const reader = await store.connection.runAndReadAll(sql);
    return { columns: columnsOf(reader.columnNames(), reader.columnTypes()), rows: reader.getRowsJson() };
  } catch (e) {
    throw SqlError.from(e, sql);
  }
}
