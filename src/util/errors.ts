// Typed errors. The type (never the message text) decides the exit code – DESIGN.md "Exit codes":
// 0 success, 1 failure, 2 invalid usage or configuration, 3 partial success.

export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface GpuledgerErrorOptions {
  cause?: unknown;
  /** Extra structured context for logs and the run table (never secrets). */
  context?: Record<string, unknown>;
}

/** Base class: a message a user can act on, a stable code, and the exit code it maps to. */
export class GpuledgerError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly context: Record<string, unknown>;

  constructor(code: string, message: string, exitCode: ExitCode, options: GpuledgerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.context = options.context ?? {};
  }
}

/** Bad flags, arguments or values on the command line. */
export class UsageError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('usage', message, EXIT.usage, options);
  }
}

/** The config file (or an env var it names) is missing, unreadable or invalid. */
export class ConfigError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('config', message, EXIT.usage, options);
  }
}

/** A command that exists in DESIGN.md but is not built yet. */
export class NotImplementedError extends GpuledgerError {
  constructor(command: string) {
    super('not_implemented', `'${command}' is not built yet in this version of gpuledger`, EXIT.usage);
  }
}

/** The database is held by another process (DuckDB allows one writer per file). */
export class DatabaseLockedError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('db_locked', message, EXIT.failure, options);
  }
}

/** A store problem: migration, load, or a query that failed. */
export class StoreError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('store', message, EXIT.failure, options);
  }
}

/**
 * What is wrong with the copies of the database, told by the store itself (no good copy to go on from or to restore):
 * the message names each file and its problem, so it is never re-worded as one damaged database.
 */
export class StoreCopiesError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('store_copies', message, EXIT.failure, options);
  }
}

/** Some parts of a multi-part job failed while others succeeded. */
export class PartialFailureError extends GpuledgerError {
  readonly failures: readonly Error[];
  constructor(message: string, failures: readonly Error[], options?: GpuledgerErrorOptions) {
    super('partial', message, EXIT.partial, options);
    this.failures = failures;
  }
}

export function isGpuledgerError(e: unknown): e is GpuledgerError {
  return e instanceof GpuledgerError;
}

/** The exit code an error maps to: typed errors carry theirs, anything else is a plain failure. */
export function exitCodeOf(e: unknown): ExitCode {
  return isGpuledgerError(e) ? e.exitCode : EXIT.failure;
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// DuckDB's words for a file it cannot trust: a bad checksum, a truncated file, garbage where the header should be,
// and the fatal state a failed rollback on such a file leaves the instance in.
const DAMAGED = /Corrupt database file|is not a valid DuckDB database file|Could not read enough bytes from file|Failed to rollback|database has been invalidated because of a previous fatal error/i;

/** The database file (or an error caused by it) is damaged, as far as DuckDB can tell. */
export function isDamagedDatabase(e: unknown): boolean {
  // a full disk fails writes, not the file: it is said as a full disk (DiskFullError)
  if (diskFullPath(e)) return false;
  for (let cur = e, depth = 0; cur !== undefined && cur !== null && depth < 8; depth++) {
    if (cur instanceof DatabaseDamagedError) return true;
    if (cur instanceof StoreCopiesError) return false;
    if (DAMAGED.test(cur instanceof Error ? cur.message : String(cur))) return true;
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return false;
}

// A full disk, in Node's words (ENOSPC) or DuckDB's ("Could not write file "<path>": No space left on device", also
// inside "FATAL Error: Failed to create checkpoint because of error: …").
const NO_SPACE = /No space left on device/i;
const DUCKDB_FILE = /Could not write file "([^"]+)"/;

/** The file a full disk refused, when the error (or one it was caused by) is a full disk; undefined otherwise. */
export function diskFullPath(e: unknown): { path: string | undefined } | undefined {
  for (let cur = e, depth = 0; cur !== undefined && cur !== null && depth < 8; depth++) {
    if (cur instanceof DiskFullError) return { path: cur.path };
    const err = cur as NodeJS.ErrnoException & { dest?: string };
    // copyfile names both ends: the one written is the destination
    if (err.code === 'ENOSPC') return { path: err.dest ?? err.path };
    const text = cur instanceof Error ? cur.message : String(cur);
    if (NO_SPACE.test(text)) return { path: DUCKDB_FILE.exec(text)?.[1] };
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return undefined;
}

/** A publish file (`<db>.publish-<owner>.tmp`) is gpuledger's own detail: the disk is the database's. */
function shownFile(path: string): string {
  return path.replace(/\.publish-\d+(?:-\d+)?(?:\.previous)?\.tmp$/, '');
}

/**
 * The disk holding a file gpuledger was writing is full – at a checkpoint, a load or a publish (issue 37 §5): said as
 * that, with the file, never as an unexpected or a damaged database (moving copies aside would not free a byte).
 * `path` falls back to the caller's file when the error names none; `advice` says what became of the work.
 */
export class DiskFullError extends GpuledgerError {
  readonly path: string | undefined;
  constructor(path: string | undefined, cause: unknown, advice = 'free some space on it and run the command again') {
    const shown = path === undefined ? undefined : shownFile(path);
    super('disk_full', `no space left on the disk holding ${shown ?? 'the database'}; ${advice}`, EXIT.failure, { cause });
    this.path = shown;
  }
}

/**
 * A database file cannot be read; `path` is the file DuckDB could not read (the published `<db>` or the writer copy
 * `<db>.writer`). The advice is the caller's when it knows better – a good copy beside it (gpuledger store restore);
 * otherwise: move it aside and sync again, which brings back the billing history (the platform keeps it) but not what
 * only the database held (imported metrics, balance history, alert state: README "Operations").
 */
export class DatabaseDamagedError extends GpuledgerError {
  constructor(path: string | undefined, cause: unknown, advice?: string) {
    const detail = errorMessage(cause).split('\n').find((l) => DAMAGED.test(l)) ?? errorMessage(cause).split('\n')[0];
    const writer = path?.endsWith('.writer') ?? false;
    const db = path?.replace(/\.writer$/, '');
    const what = writer ? `the writer copy ${path}` : `database ${path ?? 'file'}`;
    const aside = !path ? 'move it aside (and <db>.writer if present)' : writer ? `move it aside (mv ${path} ${path}.damaged)` : `move it aside (mv ${db} ${db}.damaged, and ${db}.writer if present)`;
    super('db_damaged', `${what} is damaged (${detail?.trim()}); ${advice ?? `${aside} and run gpuledger sync to rebuild it from the platform (the billing history; metrics, balance history and alert state come back only from a backup)`}`, EXIT.failure, { cause });
  }
}

/**
 * An export target (PostgreSQL) could not be reached, went away, or refused the work part-way. The export runs in one
 * transaction, so nothing of this run was committed and the previous export is intact; running it again finishes it.
 */
export class ExportTargetError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('export_target', message, EXIT.failure, options);
  }
}
