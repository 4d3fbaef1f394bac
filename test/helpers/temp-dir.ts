// A fresh folder under the system temp folder for one test, with the path a test database gets in it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  dir: string;
  /** `<dir>/ledger.duckdb`: where a test's database goes (not created). */
  db: string;
  cleanup(): void;
}

export function tempDir(prefix = 'gpuledger-test-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, db: join(dir, 'ledger.duckdb'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
