// The shared database: writers work on <db>.writer and publish <db> atomically; readers open <db> and never wait;
// a <db> changed behind gpuledger's back is adopted by the next writer; a missing or unpublished <db> is said plainly.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { lockPathFor, processStartOf } from '../../src/store/lock.ts';
import { openReader, openWriter, withReader, withWriter, writerPathFor, writeSessions } from '../../src/store/shared-database.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('the shared database', () => {
  let dir: string;
  let db: string;

  beforeEach(() => {
    dir = tempDir('gpuledger-shared-').dir;
    db = join(dir, 'ledger.duckdb');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The write lock held by another live process on this machine (a sleeping child), as another gpuledger would. */
  const holdLockElsewhere = (command: string) => {
    const child: ChildProcess = spawn('sleep', ['60'], { stdio: 'ignore' });
    writeFileSync(
      lockPathFor(db),
      JSON.stringify({ pid: child.pid, command, startedAt: new Date().toISOString(), host: hostname(), processStart: processStartOf(child.pid!) }),
    );
    return { release: () => { rmSync(lockPathFor(db), { force: true }); child.kill(); } };
  };

  const count = async (path: string) => {
    const s = await openStore({ path, readOnly: true });
    try {
      return (await s.one<{ n: string }>(`select count(*)::varchar n from _meta_runs`))?.n;
    } finally {
      await s.close();
    }
  };
  // writers here skip the views (applyViews: false, as generations.test.ts does): what is published, adopted and locked
  // is the point, and creating every view in each new file cost seconds a test
  const addRun = (store: Awaited<ReturnType<typeof openWriter>>, id: string) =>
    store.run(`insert into _meta_runs (run_id, command, started_at, status) values ($1, 'test', now(), 'success')`, [id]);

  it('publishes what a writing session committed, and only when it ends', async () => {
    const writer = await openWriter({ dbPath: db, command: 'test', applyViews: false });
    await addRun(writer, 'a');
    expect(existsSync(db)).toBe(false); // nothing is published mid-session
    await writer.close();
    expect(existsSync(writerPathFor(db))).toBe(true);
    expect(await count(db)).toBe('1');
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it('lets a reader that opened the old copy keep reading it while a writer publishes a new one', async () => {
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) => addRun(s, 'a'));
    const reader = await openReader(db);
    try {
      await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) => addRun(s, 'b'));
      expect((await reader.one<{ n: string }>(`select count(*)::varchar n from _meta_runs`))?.n).toBe('1');
    } finally {
      await reader.close();
    }
    expect(await count(db)).toBe('2');
  });

  it('writes while a reader holds the published file open (the reader never blocks the writer)', async () => {
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) => addRun(s, 'a'));
    const analyst = await openStore({ path: db, readOnly: true });
    try {
      await withWriter({ dbPath: db, command: 'test', applyViews: false, waitMs: 0 }, (s) => addRun(s, 'b'));
    } finally {
      await analyst.close();
    }
    expect(await count(db)).toBe('2');
  });

  it('adopts a database written directly at <db> since the last publish', async () => {
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) => addRun(s, 'a'));
    // e.g. an older gpuledger or a restored backup: written at <db>, not through the writer copy
    await new Promise((r) => setTimeout(r, 20));
    const direct = await openStore({ path: db, command: 'direct' });
    await direct.run(`insert into _meta_runs (run_id, command, started_at, status) values ('direct', 'test', now(), 'success')`);
    await direct.close();
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) => addRun(s, 'b'));
    expect(await count(db)).toBe('3');
  });

  it('keeps the published copy stamped with the writer copy\'s time, so an unchanged <db> is not adopted again', async () => {
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) => addRun(s, 'a'));
    expect(Math.abs(statSync(db).mtimeMs - statSync(writerPathFor(db)).mtimeMs)).toBeLessThanOrEqual(1);
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, (s) => addRun(s, 'b'));
    expect(await count(db)).toBe('2');
  });

  it('does not publish a session that asked not to, and publishes it with the next one', async () => {
    const sessions = writeSessions({ dbPath: db, command: 'test', applyViews: false });
    await sessions.write((s) => addRun(s, 'a'), { publish: false });
    expect(existsSync(db)).toBe(false);
    await sessions.write((s) => addRun(s, 'b'));
    expect(await count(db)).toBe('2');
  });

  it('says how to get a database when there is none, and when the first sync has not published yet', async () => {
    await expect(openReader(db)).rejects.toThrow(/does not exist yet; run gpuledger sync first/);
    const writer = await openWriter({ dbPath: db, command: 'test', applyViews: false, publish: false });
    await writer.close();
    await expect(withReader(db, async () => undefined)).rejects.toThrow(/has not been published yet/);
  });

  it('makes a second writer wait for the first one\'s session and say whom it waited for', async () => {
    const lock = holdLockElsewhere('other');
    const lines: string[] = [];
    setTimeout(() => lock.release(), 600);
    await withWriter({ dbPath: db, command: 'test', applyViews: false, waitMs: 10_000, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } }, (s) => addRun(s, 'a'));
    expect(lines.join('\n')).toMatch(/pid \d+ \(other\) is writing .*; waiting up to \d+ s/);
    expect(lines.join('\n')).toMatch(/waited \d+\.\d s for other \(pid \d+\) to finish writing/);
  });

  it('takes over a lock whose pid now belongs to another process (a container restart)', async () => {
    writeFileSync(lockPathFor(db), JSON.stringify({ pid: 1, command: 'sync', startedAt: '2026-01-01T00:00:00Z', host: hostname(), processStart: 'not-pid-1s-start' }));
    await withWriter({ dbPath: db, command: 'test', applyViews: false, waitMs: 0 }, (s) => addRun(s, 'a'));
    expect(await count(db)).toBe('1');
  });

  it('refuses a second writer at once without --wait, naming the holder and the flag', async () => {
    const lock = holdLockElsewhere('other');
    try {
      await expect(withWriter({ dbPath: db, command: 'test', applyViews: false, waitMs: 0 }, async () => undefined)).rejects.toThrow(
        /another gpuledger process \(pid \d+, other since .*\) is writing .*; try again later or pass --wait SECONDS/,
      );
    } finally {
      lock.release();
    }
  });
});
