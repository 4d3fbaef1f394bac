// The folder an export writes its CSV files into, under the system's temp folder and named after the process. A
// killed export cannot remove its own; the next export removes any whose process is gone, so they never pile up.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'gpuledger-pg-export-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but is someone else's
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function createWorkDir(): string {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^gpuledger-pg-export-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  return mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
}
