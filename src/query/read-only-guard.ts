// `gpuledger query` runs only statements that read. The decision comes from DuckDB's own parse of every statement
// (extractStatements → prepare → statementType), never from a regular expression over the text. This is the second
// wall: the first is the sandbox (sandbox.ts), which must already be in place, because preparing binds, and binding
// read_csv reads its file and COPY/EXPORT touch their targets. A statement the sandbox refuses while it is prepared
// fails here as a SandboxError. The type check catches what the sandbox alone would allow: writes into a folder
// granted with --allow-read, temporary tables, SET VARIABLE, and the like. EXPLAIN is looked into
// (explained-statement.ts): EXPLAIN ANALYZE runs what it wraps, and DuckDB lets any statement write the database's
// own WAL names even with external access off (issue 18 §3), so only EXPLAIN of a query passes.
import type { DuckDBConnection } from '@duckdb/node-api';
import { StatementType } from '../util/duckdb-api.ts';
import { EXIT, GpuledgerError } from '../util/errors.ts';
import { explainedStatement } from './explained-statement.ts';
import { isSandboxRefusal, SandboxError } from './sandbox-error.ts';
import { EmptySqlError, SqlError } from './sql-error.ts';

/** Statement types that only read: SELECT (also DESCRIBE, SHOW, SUMMARIZE, PRAGMA table_info) and EXPLAIN. */
const READING: ReadonlySet<StatementType> = new Set([StatementType.SELECT, StatementType.EXPLAIN]);

const WHAT: Partial<Record<StatementType, string>> = {
  [StatementType.INSERT]: 'INSERT',
  [StatementType.UPDATE]: 'UPDATE',
  [StatementType.DELETE]: 'DELETE',
  [StatementType.CREATE]: 'CREATE',
  [StatementType.CREATE_FUNC]: 'CREATE FUNCTION',
  [StatementType.DROP]: 'DROP',
  [StatementType.ALTER]: 'ALTER',
  [StatementType.COPY]: 'COPY',
  [StatementType.COPY_DATABASE]: 'COPY DATABASE',
  [StatementType.EXPORT]: 'EXPORT',
  [StatementType.ATTACH]: 'ATTACH',
  [StatementType.DETACH]: 'DETACH',
  [StatementType.LOAD]: 'INSTALL/LOAD',
  [StatementType.EXTENSION]: 'extension',
  [StatementType.UPDATE_EXTENSIONS]: 'UPDATE EXTENSIONS',
  [StatementType.SET]: 'SET',
  [StatementType.VARIABLE_SET]: 'SET VARIABLE',
  [StatementType.PRAGMA]: 'PRAGMA',
  [StatementType.TRANSACTION]: 'transaction',
  [StatementType.VACUUM]: 'VACUUM',
  [StatementType.CALL]: 'CALL',
  [StatementType.MERGE_INTO]: 'MERGE INTO',
  [StatementType.PREPARE]: 'PREPARE',
  [StatementType.EXECUTE]: 'EXECUTE',
  [StatementType.ANALYZE]: 'ANALYZE',
};

export interface GuardOptions {
  /**
   * Files were granted with --allow-read. DuckDB's allow-lists grant writing as well as reading, so EXPLAIN ANALYZE
   * COPY … TO could write into a granted folder: with grants, EXPLAIN is refused altogether – a second wall beside
   * the look into EXPLAIN, which alone decides without grants (EXPLAIN and EXPLAIN ANALYZE of a query work).
   */
  fileGrants?: boolean;
}

/** A statement that could change the database, its settings or files: refused before anything runs. */
export class WritingStatementError extends GpuledgerError {
  constructor(what: string, index: number, count: number) {
    const which = count > 1 ? `statement ${index + 1} of ${count} is ${what}` : `the statement is ${what}`;
    super(
      'query_refused',
      `query runs read-only SQL only (SELECT, WITH … SELECT, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN); ${which}` +
        (what === 'SET VARIABLE' || what === 'SET' ? ' – use --as-of to set gpuledger_as_of' : '') +
        (what === 'CALL' ? ' – use SELECT * FROM the function instead' : ''),
      EXIT.usage,
    );
  }
}

/** Throws unless every statement in `sql` only reads. Syntax and binding errors come back as SqlError. */
export async function assertReadOnly(connection: DuckDBConnection, sql: string, options: GuardOptions = {}): Promise<number> {
  let extracted;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (e) {
    // text that is only whitespace, comments or semicolons: the binding reports DuckDB's "no statement" without a
    // message of its own
    if (e instanceof Error && /^Error in native callback$/.test(e.message)) throw new EmptySqlError();
    throw SqlError.from(e, sql);
  }
  if (extracted.count === 0) throw new EmptySqlError();
  for (let i = 0; i < extracted.count; i++) {
    let type: StatementType;
    try {
      const prepared = await extracted.prepare(i);
      type = prepared.statementType;
      prepared.destroySync();
    } catch (e) {
      throw isSandboxRefusal(e) ? new SandboxError(e) : SqlError.from(e, sql);
    }
    if (type === StatementType.EXPLAIN) await assertExplainsAQuery(connection, sql, i, extracted.count, options);
    if (!READING.has(type)) throw new WritingStatementError(WHAT[type] ?? StatementType[type] ?? 'not a query', i, extracted.count);
  }
  return extracted.count;
}

async function assertExplainsAQuery(connection: DuckDBConnection, sql: string, index: number, count: number, options: GuardOptions): Promise<void> {
  if (options.fileGrants) {
    throw new WritingStatementError('EXPLAIN, which is not available with --allow-read (it could run a COPY into a granted folder)', index, count);
  }
  // the node client gives no statement's own text, so the explained statement is read from the whole text
  if (count > 1) throw new WritingStatementError('EXPLAIN among other statements – run EXPLAIN on its own', index, count);
  const explained = await explainedStatement(connection, sql);
  if (!explained.query) {
    const inner = explained.type === undefined ? 'something that is not a query' : (WHAT[explained.type] ?? StatementType[explained.type]);
    throw new WritingStatementError(`EXPLAIN of ${inner}, which EXPLAIN ANALYZE would run`, index, count);
  }
}
