// DuckDB's error, with where it happened: "LINE 2: …" and a caret become "line 2, column 9" in the one-line message
// (DuckDB's excerpt and caret are dropped: every failure is one line, issue 12). A statement that fails is a failed
// command (exit 1), not a usage error: the flags were right, the SQL was not.
import { EXIT, GpuledgerError } from '../util/errors.ts';

export interface SqlPosition {
  line: number;
  column: number | undefined;
}

/** Where DuckDB points in its message (1-based), if it does. */
export function sqlErrorPosition(message: string, sql: string): SqlPosition | undefined {
  const m = /\n(LINE (\d+): )(.*)\n( *)\^/.exec(message);
  if (m) {
    const prefix = m[1]!.length;
    const excerpt = m[3]!;
    const caret = m[4]!.length - prefix;
    const line = Number(m[2]);
    // DuckDB shortens long lines with a leading '...': then the excerpt is located in the real line
    const real = sql.split('\n')[line - 1] ?? '';
    if (!excerpt.startsWith('...')) return { line, column: caret + 1 };
    const at = real.indexOf(excerpt.slice(3).replace(/\.\.\.$/, ''));
    return { line, column: at >= 0 ? at + caret - 3 + 1 : undefined };
  }
  if (/at end of input/.test(message)) {
    const lines = sql.replace(/\s+$/, '').split('\n');
    return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
  }
  return undefined;
}

export class SqlError extends GpuledgerError {
  readonly position: SqlPosition | undefined;

  constructor(message: string, position: SqlPosition | undefined, cause: unknown) {
    const where = position ? ` at line ${position.line}${position.column ? `, column ${position.column}` : ''}` : '';
    const [first] = message.replace(/^Failed to extract statements: /, '').split('\n');
    super('sql', `SQL error${where}: ${first}`, EXIT.failure, { cause });
    this.position = position;
  }

  static from(e: unknown, sql: string): SqlError {
    const message = e instanceof Error ? e.message : String(e);
    return new SqlError(message, sqlErrorPosition(message, sql), e);
  }
}

/** The SQL text holds no statement: empty, blank, or comments only. */
export class EmptySqlError extends GpuledgerError {
  constructor() {
    super('query_empty', 'query needs a SQL statement, and the text holds none (it is empty, blank or only comments); e.g. gpuledger query "select * from cost limit 10"', EXIT.usage);
  }
}

/** More than one statement: DuckDB's client would answer with one result and drop the others without a word. */
export class SeveralStatementsError extends GpuledgerError {
  constructor(count: number) {
    super(
      'query_several',
      `query runs one statement; got ${count} (separated by ';'): run each on its own, or combine them into one (UNION ALL, a WITH … SELECT)`,
      EXIT.usage,
    );
  }
}
