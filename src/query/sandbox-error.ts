// What the sandbox refused, said in one line: DuckDB's "Permission Error: Cannot access file …" becomes which path
// the statement wanted and how to allow reading it.
import { EXIT, GpuledgerError } from '../util/errors.ts';

/**
 * DuckDB refuses file access when enable_external_access is off (and extension loading, and locked settings), and
 * writes to a database opened READ_ONLY – which is how EXPLAIN ANALYZE of an INSERT ends.
 */
export function isSandboxRefusal(e: unknown): boolean {
  return (
    e instanceof Error &&
    /^(Permission Error:|Invalid Input Error: Cannot change configuration option|.*which is attached in read-only mode)/m.test(e.message)
  );
}

export class SandboxError extends GpuledgerError {
  constructor(cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    // DuckDB may name a temporary sibling (tmp_x.csv) of the file the statement writes; the folder is what matters
    const path = /Cannot access (?:file|directory) "([^"]*)"/.exec(message)?.[1];
    // without grants the whole local file system is off (sandbox.ts), and DuckDB then names no path
    const anyFile = /File system LocalFileSystem has been disabled/.test(message);
    const what =
      path !== undefined
        ? `the statement would read or write ${path}`
        : anyFile
          ? 'the statement would read or write a file'
          : /read-only mode/.test(message)
          ? 'the statement would write to the database'
          : `DuckDB refused: ${message.split('\n')[0]}`;
    super(
      'query_sandbox',
      `query reads only the database and the paths given with --allow-read, and writes nothing; ${what}` +
        (path !== undefined || anyFile ? ' – to read a local file, pass --allow-read FILE or --allow-read FOLDER' : ''),
      EXIT.usage,
      { cause },
    );
  }
}
