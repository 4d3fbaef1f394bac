// vitest's globalSetup: one folder for the whole run (every project, every worker) where fixtures built once per run
// are kept (synced-fixture.ts), removed when the run ends. Workers find it through the environment.
// The run's temp folder (TMPDIR, so os.tmpdir() in every worker, CLI child, PostgreSQL and Chromium) lives inside it:
// whatever a test forgets to remove goes with the run instead of piling up in /tmp (it had reached 14 GB).
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.ts';

export const RUN_FOLDER_ENV = 'GPULEDGER_TEST_RUN_FOLDER';

export default function setup(): () => void {
  // each project runs this; the first one's folder serves them all
  if (process.env[RUN_FOLDER_ENV]) return () => {};
  const folder = tempDir('gpuledger-run-').dir;
  const outerTmp = process.env.TMPDIR;
  const runTmp = join(folder, 'tmp');
  mkdirSync(runTmp);
  // like /tmp: PostgreSQL's binaries run as an unprivileged user (postgres.ts) and must reach their folder in here
  chmodSync(folder, 0o755);
  chmodSync(runTmp, 0o1777);
  process.env[RUN_FOLDER_ENV] = folder;
  process.env.TMPDIR = runTmp;
  return () => {
    if (outerTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outerTmp;
    rmSync(folder, { recursive: true, force: true });
    delete process.env[RUN_FOLDER_ENV];
  };
}
