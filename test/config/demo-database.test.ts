// Which database a command reads right after the demo: the demo's, until a real one exists or one is named.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoInstead } from '../../src/config/demo-database.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function folder(files: string[]): string {
  const dir = tempDir('gpuledger-demo-db-').dir;
  mkdirSync(join(dir, 'data'));
  for (const f of files) writeFileSync(join(dir, f), '');
  return dir;
}

describe('the demo database as the default', () => {
  it('is used, with a note naming both files, when only the demo database exists', () => {
    const dir = folder(['data/demo.duckdb']);
    const demo = demoInstead(join(dir, 'data/gpuledger.duckdb'), false, dir);
    expect(demo?.dbPath).toBe(join(dir, 'data/demo.duckdb'));
    expect(demo?.note).toBe('using the demo database data/demo.duckdb (simulated data): data/gpuledger.duckdb does not exist yet – `gpuledger sync` with an API key creates it');
  });

  it.each([
    ['the real database exists', ['data/demo.duckdb', 'data/gpuledger.duckdb'], false],
    ['only its writer copy exists (a first sync killed before publishing)', ['data/demo.duckdb', 'data/gpuledger.duckdb.writer'], false],
    ['the path was named by --db or GPULEDGER_DB', ['data/demo.duckdb'], true],
    ['there is no demo database either', [], false],
  ])('is not used when %s', (_what, files, explicit) => {
    const dir = folder(files);
    expect(demoInstead(join(dir, 'data/gpuledger.duckdb'), explicit, dir)).toBeUndefined();
  });
});
