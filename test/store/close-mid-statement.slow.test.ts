// A store closed while statements run on it: close waits for them, so none runs on a freed database. In a child
// process, because before the fix the process hung, segfaulted or threw bad_weak_ptr.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const CLOSE_MID_STATEMENT = fileURLToPath(new URL('../helpers/close-mid-statement.ts', import.meta.url));

describe('store close', () => {
  it('closes only once the statements started on it have finished, so none runs on a freed database', async () => {
    const path = join(tempDir('gpuledger-store-').dir, 'test.duckdb');
    const store = await openStore({ path, applyViews: false });
    await store.run('create table facts as select i, (i % 1000)::decimal(18,6) as amount from range(2000000) t(i)');
    await store.close();
    // in a child process: before closing waited, this hung, segfaulted or threw bad_weak_ptr
    const child = spawnSync(process.execPath, ['--import', 'tsx', CLOSE_MID_STATEMENT, path], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
    expect(child.stdout.trim().split('\n')).toEqual(Array(5).fill('999000000.000000 40000000'));
  }, 90_000);
});
