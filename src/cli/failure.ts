// How any failure ends: one line on stderr, `gpuledger: …`, and the exit code its type decides (DESIGN.md "Exit
// codes"). Typed errors say what was wrong themselves; this module only makes sure that whatever else escapes – a
// commander parse error, a Node file-system error, DuckDB calling the file damaged, a bare throw – reads the same
// way, on one line, with no secret in it.
import { CommanderError } from 'commander';
import { DatabaseDamagedError, DiskFullError, diskFullPath, EXIT, exitCodeOf, isDamagedDatabase, isGpuledgerError, type ExitCode } from '../util/errors.ts';
import { redact } from '../util/secrets.ts';

export interface Failure {
  line: string;
  code: ExitCode;
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EEXIST: 'it already exists',
  EMFILE: 'too many open files',
};

const FS_VERBS: Record<string, string> = {
  open: 'open',
  mkdir: 'create the folder',
  copyfile: 'copy',
  rename: 'rename',
  unlink: 'remove',
  rmdir: 'remove',
  scandir: 'list',
  stat: 'read',
  read: 'read',
  write: 'write',
};

/** "cannot create the folder /x/y: a part of the path is a file, not a folder" from a Node system error. */
function describeSystemError(e: NodeJS.ErrnoException): string | undefined {
  if (typeof e.code !== 'string' || typeof e.path !== 'string') return undefined;
  const reason = FS_REASONS[e.code];
  if (!reason) return undefined;
  const verb = FS_VERBS[e.syscall ?? ''] ?? e.syscall ?? 'use';
  // a temporary sibling (.x.csv.tmp-123) is an implementation detail: name the folder it was written into
  const path = e.path.replace(/\/\.[^/]*\.tmp-\d+$/, '') || e.path;
  return `cannot ${verb} ${path}: ${reason} (${e.code})`;
}

/** Lines of a message joined into one: an error that must fit one line keeps all it says. */
export function oneLine(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}

/** The line and exit code for anything that ends the program. `dbPath` names the file when DuckDB calls it damaged. */
export function describeFailure(e: unknown, dbPath?: string): Failure {
  if (e instanceof CommanderError) {
    // commander's own words ("error: unknown option '--x'", "(Did you mean sync?)"), on one line with the way to help
    const text = oneLine(e.message.replace(/^error: /, ''));
    return { line: `gpuledger: ${text} (run gpuledger --help for usage)`, code: e.exitCode === 0 ? EXIT.ok : EXIT.usage };
  }
  let error = e;
  const full = diskFullPath(e);
  if (full && !(e instanceof DiskFullError)) error = new DiskFullError(full.path ?? dbPath, e);
  else if (!(e instanceof DatabaseDamagedError) && isDamagedDatabase(e)) error = new DatabaseDamagedError(dbPath, e);
  let message: string;
  if (isGpuledgerError(error)) message = error.message;
  else if (error instanceof Error) message = describeSystemError(error as NodeJS.ErrnoException) ?? `${error.message || error.name} (an unexpected error; --log-level debug shows where)`;
  else message = `${String(error)} (an unexpected error)`;
  return { line: redact(`gpuledger: ${oneLine(message)}`), code: exitCodeOf(error) };
}

/** Whether the command line asks for JSON output (`--format json|ndjson`, `billing -o json`). */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => {
    const value = /^--format=(.+)$/.exec(a)?.[1] ?? (a === '--format' || a === '-o' ? argv[i + 1] : undefined);
    return value === 'json' || value === 'ndjson';
  });
}

/** A failure as one line of JSON: the message (without the `gpuledger: ` prefix) and the error's stable code. */
export function failureJson(line: string, e: unknown): string {
  const code = isGpuledgerError(e) ? e.code : e instanceof CommanderError ? 'usage' : 'failure';
  return JSON.stringify({ error: line.replace(/^gpuledger: /, ''), code });
}
