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
