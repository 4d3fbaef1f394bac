// Runs the real CLI (node bin/gpuledger.js) and captures what a user would see.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));

/**
 * Where the CLI runs unless a test names a folder: an empty one of this test process's own, never the checkout. The
 * checkout's data/ and out/ hold whatever the developer last ran (`npm start` leaves a demo database there, and the
 * CLI then says "using the demo database"), so a test run there would pass or fail by what the folder holds.
 */
let emptyFolder: string | undefined;
export function cliFolder(): string {
  emptyFolder ??= mkdtempSync(join(tmpdir(), 'gpuledger-cli-cwd-'));
  return emptyFolder;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function gpuledger(args: string[], env: NodeJS.ProcessEnv = {}, options: { cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, GPULEDGER_CONFIG: '', ...env }, maxBuffer: 64 * 1024 * 1024, cwd: options.cwd ?? cliFolder() },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** How a CLI started with startGpuledger ended: its exit code or the signal that ended it, and all it wrote. */
export interface CliEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** What it has written so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Once its output has closed. */
  ended: Promise<CliEnd>;
}

/** Starts the real CLI without waiting for it: for a test that watches its output, or stops or kills it part-way. */
export function startGpuledger(args: string[], env: NodeJS.ProcessEnv = {}, options: { cwd?: string } = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, GPULEDGER_CONFIG: '', ...env }, cwd: options.cwd ?? cliFolder() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<CliEnd>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    ended,
  };
}
