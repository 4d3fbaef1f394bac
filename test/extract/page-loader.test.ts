// The lingering, batching writer: pages wait until a batch is worth a session, pages queued back to back share one
// writing session, a page after a quiet spell opens a new one, at most maxQueued pages wait, and a session that cannot
// open fails the pages that waited for it with its reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageLoader } from '../../src/extract/page-loader.ts';
import type { Store } from '../../src/store/database.ts';
import { heldSessions, type SessionOptions, type WriteSessions } from '../../src/store/shared-database.ts';
import { openMigratedStore } from '../helpers/view-store.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';


let tmp: TempDir;
let store: Store;
beforeAll(async () => {
  tmp = tempDir('gpuledger-page-loader-');
  store = await openMigratedStore(tmp.db); // the worker's migrated template, copied
  await store.run('create table pages (n integer)');
});
afterAll(async () => {
  await store?.close();
  tmp?.cleanup();
});

/** Sessions on the test's store that count how often one was opened, and which of them published as they ended. */
function countedSessions(): WriteSessions & { opened: number; published: boolean[] } {
  const held = heldSessions(store);
  const s = {
    opened: 0,
    published: [] as boolean[],
    write: <T>(fn: (st: Store) => Promise<T>, o?: SessionOptions) => {
      s.opened++;
      return held.write(async (st) => {
        const result = await fn(st);
        const publish = o?.publish ?? true;
        s.published.push(typeof publish === 'function' ? publish() : publish);
        return result;
      }, o);
    },
  };
  return s;
}

describe('the page loader', () => {
  it('runs pages queued back to back in one session, in order, and opens another after a quiet spell', async () => {
    const sessions = countedSessions();
    const loader = createPageLoader({ sessions, lingerMs: 0, batchRecords: 1 });
    const runs = [1, 2, 3, 4].map((n) => loader.queue((s) => s.run(`insert into pages values (${n})`), { records: 1 }));
    await Promise.all(runs.map((r) => r.done));
    await loader.close();
    expect(sessions.opened).toBe(1);
    await loader.queue((s) => s.run('insert into pages values (5)'), { records: 1 }).done;
    await loader.close();
    expect(sessions.opened).toBe(2);
    const rows = await store.all<{ n: number }>('select n from pages');
    expect(rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('opens no session for pages below a batch until enough records wait, or work must run now', async () => {
    const sessions = countedSessions();
    const loader = createPageLoader({ sessions, batchRecords: 100, maxDelayMs: 3_600_000, lingerMs: 0 });
    const small = loader.queue(async () => 'small', { records: 40 });
    await small.queued;
    expect(sessions.opened).toBe(0);
    const more = loader.queue(async () => 'more', { records: 60 });
    await more.queued;
    expect(sessions.opened).toBe(1);
    expect(await Promise.all([small.done, more.done])).toEqual(['small', 'more']);
    await loader.close();
    const urgent = loader.queue(async () => 'inventory', { now: true });
    await urgent.queued;
    expect(sessions.opened).toBe(2);
    expect(await urgent.done).toBe('inventory');
    await loader.close();
  });

  it('lets at most two pages wait: the third is queued only when the first starts', async () => {
    const loader = createPageLoader({ sessions: heldSessions(store), maxQueued: 2, lingerMs: 0, batchRecords: 1 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    const first = loader.queue(async () => { order.push('run 1'); await gate; }, { records: 1 });
    const second = loader.queue(async () => { order.push('run 2'); }, { records: 1 });
    const third = loader.queue(async () => { order.push('run 3'); }, { records: 1 });
    void third.queued.then(() => order.push('queued 3'));
    await first.queued;
    await second.queued;
    release();
    await third.done;
    await loader.close();
    // the third waited until the first had left the queue to run
    expect(order.indexOf('queued 3')).toBeGreaterThan(order.indexOf('run 1'));
    expect(order.filter((o) => o.startsWith('run'))).toEqual(['run 1', 'run 2', 'run 3']);
  });

  it('fails the waiting pages with the reason when the session cannot open', async () => {
    const refused: WriteSessions = { write: () => Promise.reject(new Error('another gpuledger process is writing')) };
    const loader = createPageLoader({ sessions: refused, lingerMs: 0 });
    const page = loader.queue(async () => 'loaded', { now: true });
    await expect(page.done).rejects.toThrow(/another gpuledger process is writing/);
    await loader.close();
  });

  it('runs the last work in the session still lingering after the pages, and only that session publishes', async () => {
    const sessions = countedSessions();
    const loader = createPageLoader({ sessions, lingerMs: 3_600_000, batchRecords: 1 });
    await loader.queue((s) => s.run('insert into pages values (10)'), { records: 1 }).done;
    const note = await loader.close(async (s) => (await s.one<{ n: number }>('select max(n) as n from pages'))!.n);
    expect(note).toBe(10);
    expect(sessions.opened).toBe(1);
    expect(sessions.published).toEqual([true]);
  });

  it('opens one publishing session for the last work when none is open, after pages that did not publish', async () => {
    const sessions = countedSessions();
    const loader = createPageLoader({ sessions, lingerMs: 0, batchRecords: 1 });
    await loader.queue((s) => s.run('insert into pages values (11)'), { records: 1 }).done;
    await loader.close();
    expect(await loader.close(async () => 'noted')).toBe('noted');
    expect(sessions.opened).toBe(2);
    expect(sessions.published).toEqual([false, true]);
  });

  it('throws the last work’s failure from close, and the failure of the session it waited for', async () => {
    const loader = createPageLoader({ sessions: countedSessions(), lingerMs: 0 });
    await expect(loader.close(async () => { throw new Error('the run note failed'); })).rejects.toThrow(/the run note failed/);
    const refused: WriteSessions = { write: () => Promise.reject(new Error('another gpuledger process is writing')) };
    await expect(createPageLoader({ sessions: refused }).close(async () => 'never')).rejects.toThrow(/another gpuledger process is writing/);
  });
});
