// How `gpuledger sync` hears SIGINT/SIGTERM. Listened for from the command's first moment: a signal before the
// handler would end the process without a word, and a stopped sync must never look like a finished one to whoever
// reads only the exit code (issue 26 §7). Before the run starts (loading, waiting for the lock) nothing is in flight,
// so it ends there, exit 1; once it runs, the first signal lets the request in flight finish and loads what was read
// (the run then ends partial or failed, never success – extract/sync.ts), a second ends it at once.
import { EXIT } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { exitWith } from './last-resort.ts';

export interface Stopping {
  readonly signal: AbortSignal;
  /** The run starts: a signal from now on lets the request in flight finish and loads what was read. */
  started(log: Pick<Logger, 'warn'>): void;
  dispose(): void;
}

/** Listen now; dispose() when the command ends. */
export function listenForStop(): Stopping {
  const controller = new AbortController();
  let log: Pick<Logger, 'warn'> | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (!log) exitWith(`gpuledger: ${signal}: the sync was stopped before it read anything; nothing was changed`, EXIT.failure);
    if (controller.signal.aborted) exitWith(`gpuledger: ${signal} again: stopped at once; the chunks already loaded stay, the next sync reads the rest`, EXIT.failure);
    log.warn(`${signal}: stopping after the request in flight; what was read is still loaded (again to abort now)`);
    // the reason is the signal's name: the summary says what stopped the run
    controller.abort(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    signal: controller.signal,
    started: (l) => (log = l),
    dispose() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

