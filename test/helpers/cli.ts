// Runs the real CLI (node bin/gpuledger.js) and captures what a user would see.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));

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
      { env: { ...process.env, GPULEDGER_CONFIG: '', ...env }, maxBuffer: 64 * 1024 * 1024, cwd: options.cwd },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
