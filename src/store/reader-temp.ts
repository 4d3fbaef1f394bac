// Where a read-only DuckDB instance spills. DuckDB's default is `<db>.tmp` beside the database, so a reader that
// sorts or joins more than its memory limit (a report, issue 18 §8) needed write access to the database folder it
// only reads. Readers spill into a folder of their own in the OS temp folder (TMPDIR) instead: DuckDB creates it when
// it first spills and removes it on close; one left by a killed reader carries its owner in its name and goes when
// the next reader opens.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownerTag, sweepDead } from './run-owner.ts';

export const READER_TEMP_FOLDER = /^gpuledger-duckdb-(?<pid>\d+)-(?<start>\d+)-/;

/** A fresh, not yet existing folder for one read-only instance's spill files. */
export function readerTempDirectory(): string {
  sweepDead(tmpdir(), READER_TEMP_FOLDER);
  return join(tmpdir(), `gpuledger-duckdb-${ownerTag()}-${randomBytes(4).toString('hex')}`);
}
