// A disk that fills up under a writing session is named as that (issue 37 §5): at the checkpoint DuckDB says "FATAL
// Error: Failed to create checkpoint because of error: Could not write file …: No space left on device", which read
// "FATAL … (an unexpected error)". On a real full file system – a 40 MB tmpfs, mounted here as root – the session
// fails with "no space left on the disk holding <file>", publishes nothing, and once space is freed the next session
// goes on. Where mounting is not permitted the test says so and skips.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/failure.ts';
import { checkCopy } from '../../src/store/copy-check.ts';
import { openStore } from '../../src/store/database.ts';
import { withWriter, writerPathFor } from '../../src/store/shared-database.ts';
import { DiskFullError } from '../../src/util/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const tmp = tempDir('gpuledger-disk-full-');
const disk = join(tmp.dir, 'disk');
mkdirSync(disk);
let mounted = false;
let why = '';
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', disk], { stdio: 'pipe' });
  mounted = true;
} catch (e) {
  why = String((e as { stderr?: Buffer }).stderr ?? e).trim();
  console.warn(`disk-full.test.ts skipped: mounting a 40 MB tmpfs is not permitted here (${why})`);
}

afterAll(() => {
  // lazily: a file a failed test left open must not keep the mount after the run
  if (mounted) execFileSync('umount', ['-l', disk]);
  tmp.cleanup();
});

describe.skipIf(!mounted)('a disk that fills up under a writing session (a 40 MB tmpfs)', () => {
  const db = join(disk, 'ledger.duckdb');
  const filler = join(disk, 'filler');
  // a test that fails must not leave the next one a full disk
  afterEach(() => rmSync(filler, { force: true }));
  const addRun = (id: string) =>
    withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) =>
      s.run(`insert into _meta_runs (run_id, command, started_at, status) values ($1, 'test', now(), 'success')`, [id]),
    );
  const runs = async () => {
    const s = await openStore({ path: db, readOnly: true });
    try {
      return (await s.all<{ run_id: string }>(`select run_id from _meta_runs order by run_id`)).map((r) => r.run_id).join(',');
    } finally {
      await s.close();
    }
  };

  it('says "no space left on the disk holding" the file at the checkpoint, publishes nothing, and goes on once space is freed', async () => {
    await addRun('a');
    // leave 3 MB: the session's rows fit in the WAL, the checkpoint that writes them into the file does not
    const { bavail, bsize } = statfsSync(disk);
    writeFileSync(filler, Buffer.alloc(Number(bavail) * bsize - 3_000_000));
    const error = await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) =>
      s.run(`create table notes as select range as n, md5(range::varchar) as h from range(60000)`),
    ).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(DiskFullError);
    const failure = describeFailure(error, db);
    expect(failure.code).toBe(1);
    expect(failure.line).toBe(
      `gpuledger: no space left on the disk holding ${writerPathFor(db)}; nothing was published from this session (the database is as the last publish left it); free some space there and run the command again`,
    );
    expect((await checkCopy(db)).state).toBe('good');
    expect(await runs()).toBe('a');
    rmSync(filler);
    await addRun('b');
    expect(await runs()).toBe('a,b');
  });

  it('names the database, not its publish file, when the disk fills up while publishing', async () => {
    // leave room for the session, not for the copy a publish writes beside <db>
    const { bavail, bsize } = statfsSync(disk);
    writeFileSync(filler, Buffer.alloc(Number(bavail) * bsize - 1_000_000));
    const error = await addRun('c').then(() => undefined, (e: unknown) => e);
    expect(describeFailure(error, db).line).toMatch(new RegExp(`^gpuledger: no space left on the disk holding ${db.replace(/[.]/g, '\\.')}(\\.writer)?; nothing was published from this session`));
    expect(await runs()).toBe('a,b');
  });
});
