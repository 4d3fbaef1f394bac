// The run's temp files live in its run folder (test/helpers/run-folder.ts), so nothing a test leaves behind outlives
// the run: /tmp had grown to 14 GB of test leftovers before.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { RUN_FOLDER_ENV } from './helpers/run-folder.ts';

describe('the test run folder', () => {
  it('holds the temp folder every worker and child process uses', () => {
    const folder = process.env[RUN_FOLDER_ENV];
    expect(folder).toBeTruthy();
    expect(tmpdir().startsWith(`${folder}/`)).toBe(true);
  });
});
