// Each job runs as its own `gpuledger <command>` process, so the daemon holds no database connection between jobs
// (ad hoc `query` works) and a job that crashes cannot take the daemon with it. Stopping forwards SIGTERM, which
// every command answers by finishing the step in flight.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { JobRunner } from './daemon.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));

export interface ChildRunnerOptions {
  /** Global flags every job gets: --config, --db, --api-url, --log-level. */
  globalArgs: readonly string[];
  env?: NodeJS.ProcessEnv;
}

export function childRunner(options: ChildRunnerOptions): JobRunner {
  return (run, signal) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...options.globalArgs, run.job.command, ...run.job.args], {
        env: options.env ?? process.env,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const forward = () => child.kill('SIGTERM');
      signal.addEventListener('abort', forward, { once: true });
      child.once('error', (e) => {
        signal.removeEventListener('abort', forward);
        reject(e);
      });
      child.once('exit', (code, sig) => {
        signal.removeEventListener('abort', forward);
        resolve({ exitCode: code ?? (sig === 'SIGTERM' ? 143 : 1) });
      });
    });
}
