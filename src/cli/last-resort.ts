// The last resort: what ends the process when no command's own error handling did. An exception thrown from a
// callback, a rejected promise nobody awaited, a process.exit, and the quietest of all – the event loop running dry
// while the command still waits (Node then exits with 13 and says nothing, issue 12 §3) – each end with one line
// `gpuledger: …` and a documented exit code, never a stack trace or silence.
import { EXIT, type ExitCode } from '../util/errors.ts';
import { describeFailure } from './failure.ts';

let installed = false;
let finished = false;

function say(line: string): void {
  process.stderr.write(line + '\n');
}

/** End now with one line: every process.exit in gpuledger goes through here so none of them is silent. */
export function exitWith(line: string, code: ExitCode): never {
  finished = true;
  say(line);
  process.exit(code);
}

function crash(e: unknown, how: string): void {
  if (finished) return; // already ending: the first failure is the one told
  const { line, code } = describeFailure(e);
  exitWith(`${line} [${how}]`, code === EXIT.ok ? EXIT.failure : code);
}

export function installLastResort(): void {
  if (installed) return;
  installed = true;
  process.on('uncaughtException', (e) => {
    if (process.env.GPULEDGER_LOG_LEVEL === 'debug' && e instanceof Error) say(e.stack ?? '');
    crash(e, 'uncaught exception');
  });
  process.on('unhandledRejection', (e) => {
    if (process.env.GPULEDGER_LOG_LEVEL === 'debug' && e instanceof Error) say(e.stack ?? '');
    crash(e, 'unhandled rejection');
  });
  process.on('exit', () => {
    if (finished) return;
    // the command was still waiting for something that can no longer happen (no timer, socket or file left open)
    say('gpuledger: stopped before the command finished: it was waiting for something that can no longer answer; nothing more was done (a bug – please report it with --log-level debug)');
    process.exitCode = EXIT.failure;
  });
}

/** The command returned (its own line, if any, is written): the process may end normally now. */
export function markFinished(): void {
  finished = true;
}
