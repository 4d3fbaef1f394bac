// `gpuledger query`: locks the connection into the sandbox, checks that the SQL only reads, optionally pins
// report_clock with gpuledger_as_of, runs it and returns its result with its column kinds. One statement only: the
// client reads one result, so a second one would be dropped without a word (issue 26 §7).
import type { Table } from '../util/table-text.ts';
import type { Store } from '../store/database.ts';
import { columnsOf } from './column-kinds.ts';
import { assertReadOnly } from './read-only-guard.ts';
import { isSandboxRefusal, SandboxError } from './sandbox-error.ts';
import { enterSandbox, hasGrants, NO_GRANTS, type ReadGrants } from './sandbox.ts';
import { SeveralStatementsError, SqlError } from './sql-error.ts';
import { DatabaseDamagedError, isDamagedDatabase } from '../util/errors.ts';

export interface QueryOptions {
  /** RFC 3339 instant for report_clock (SET VARIABLE gpuledger_as_of), already validated. */
  asOf?: Date;
  /** Files and folders the SQL may read besides the database (--allow-read). */
  allowRead?: ReadGrants;
}

/** Once per store: the sandbox locks the configuration of the store's DuckDB instance for good. */
export async function runReadOnlyQuery(store: Store, sql: string, options: QueryOptions = {}): Promise<Table> {
  if (!store.readOnly) throw new Error('runReadOnlyQuery needs a store opened read-only'); // a programming error
  const grants = options.allowRead ?? NO_GRANTS;
  await enterSandbox(store.connection, grants);
  // every statement is checked first, so a writing one is named as such wherever it stands
  const statements = await assertReadOnly(store.connection, sql, { fileGrants: hasGrants(grants) });
  if (statements > 1) throw new SeveralStatementsError(statements);
  if (options.asOf) {
    // our own statement, with a bound parameter: the variable report_clock reads (views-contract.md)
    await store.connection.run('set variable gpuledger_as_of = $1::timestamptz', [options.asOf.toISOString()]);
  }
  try {
    const reader = await store.connection.runAndReadAll(sql);
    return { columns: columnsOf(reader.columnNames(), reader.columnTypes()), rows: reader.getRowsJson() };
  } catch (e) {
    if (isDamagedDatabase(e)) throw new DatabaseDamagedError(store.path, e); // not the SQL's fault: say how to rebuild
    throw isSandboxRefusal(e) ? new SandboxError(e) : SqlError.from(e, sql);
  }
}
