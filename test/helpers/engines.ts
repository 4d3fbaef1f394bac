// The Python engines that read the lake (Ray Data, polars, dask, with pyarrow), in the virtual environment .ci/run
// makes: `.venv-engines/` at the top of the checkout (or the python that GPULEDGER_ENGINES_PYTHON names), installed
// from the machine's wheel index (test/engines/requirements.txt). With CI set a missing or incomplete environment
// fails the test file – .ci/run installs it, and a skip would hide a broken install – elsewhere the engine tests are
// skipped, visibly, with the command that makes the environment.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const ENGINE_SCRIPTS = fileURLToPath(new URL('../engines/', import.meta.url));
export const ENGINES_PYTHON = process.env.GPULEDGER_ENGINES_PYTHON ?? `${REPO}.venv-engines/bin/python`;
const MODULES = ['ray', 'polars', 'dask', 'pyarrow'];

/** Why the engines cannot run here, or undefined when they can. */
function missing(): string | undefined {
  if (!existsSync(ENGINES_PYTHON)) return `no python at ${ENGINES_PYTHON}`;
  // found, not imported: importing Ray takes seconds (the scripts import it anyway, and fail loudly if it is broken)
  const find = `import importlib.util, sys; gone = [m for m in sys.argv[1:] if importlib.util.find_spec(m.split('.')[0]) is None]; print(' '.join(gone)); sys.exit(1 if gone else 0)`;
  const r = spawnSync(ENGINES_PYTHON, ['-c', find, ...MODULES], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) return `${ENGINES_PYTHON} lacks ${r.stdout.trim() || String(r.error ?? r.stderr)}`;
  return undefined;
}

/** Whether a test file may run its engine tests: true, false (skipped, said on stderr), or an error under CI. */
export function requireEngines(): boolean {
  const why = missing();
  if (!why) return true;
  if (process.env.CI) throw new Error(`the lake engines are not installed (${why}), and CI must run them: .ci/run makes .venv-engines`);
  process.stderr.write(
    `SKIPPED: lake engine tests – ${why} (python3 -m venv .venv-engines && .venv-engines/bin/pip install -r test/engines/requirements.txt)\n`,
  );
  return false;
}

export interface EngineRun {
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs test/engines/<script> with the engines' python; rejects with its stderr's end when it fails. */
export function runEngineScript(script: string, args: string[], cwd: string, timeoutMs = 300_000): Promise<EngineRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      ENGINES_PYTHON,
      [`${ENGINE_SCRIPTS}${script}`, ...args],
      // Ray's usage report and dashboard would reach for the network or a port: neither is wanted in a test
      { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, RAY_USAGE_STATS_ENABLED: '0', PYTHONUNBUFFERED: '1' } },
      (error, stdout, stderr) => {
        const seconds = Math.round((performance.now() - started) / 100) / 10;
        if (error) reject(new Error(`${script} failed after ${seconds} s: ${error.message.split('\n')[0]}\n${stderr.slice(-3000)}`));
        else resolve({ stdout, stderr, seconds });
      },
    );
  });
}
