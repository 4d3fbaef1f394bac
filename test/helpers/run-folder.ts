// vitest's globalSetup: one folder for the whole run (every project, every worker) where fixtures built once per run
// are kept (synced-fixture.ts), removed when the run ends. Workers find it through the environment.
import { rmSync } from 'node:fs';
import { tempDir } from './temp-dir.ts';

export const RUN_FOLDER_ENV = 'GPULEDGER_TEST_RUN_FOLDER';

export default function setup(): () => void {
  // each project runs this; the first one's folder serves them all
  if (process.env[RUN_FOLDER_ENV]) return () => {};
  const folder = tempDir('gpuledger-run-').dir;
  process.env[RUN_FOLDER_ENV] = folder;
  return () => {
    rmSync(folder, { recursive: true, force: true });
    delete process.env[RUN_FOLDER_ENV];
  };
}
