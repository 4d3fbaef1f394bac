// The stores serve's pages read the published database through (issue 37 §1): a page no longer waits for another
// page's turn on one shared store – each use has a store to itself, up to a few at once –, a use past its time limit
// is interrupted and answers 408 in one line, the store it ran on is closed rather than handed on with whatever
// session state the page left, and every store has DuckDB's memory limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedReader, type PublishedReader } from '../../src/serve/published-reader.ts';
import { PageError } from '../../src/serve/pages.ts';
import type { Store } from '../../src/store/database.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';
import { openMigratedStore } from '../helpers/view-store.ts';

// a statement that runs for minutes unless interrupted
const ENDLESS = 'select sum(a.i * b.i) from range(100000000) a(i), range(100000000) b(i)';

describe('the published reader of serve', () => {
  let tmp: TempDir;
  let reader: PublishedReader;

  beforeAll(async () => {
    tmp = tempDir('gpuledger-published-reader-');
    await (await openMigratedStore(tmp.db)).close();
    reader = publishedReader(tmp.db, testConfig().allocation, { stores: 2, timeLimitMs: 1500, memoryLimit: '300MB' });
  });
  afterAll(async () => {
    await reader?.close();
    tmp?.cleanup();
  });

  it('answers another use while one runs a long statement, stops the long one at its limit with a one-line 408, and never hands its store on', async () => {
    let slowStore: Store | undefined;
    let slowDone = false;
    const slow = reader
      .use(async (store) => {
        slowStore = store;
        await store.run('set variable left_behind = 1'); // session state a stopped page never puts back
        return store.run(ENDLESS);
      })
      .finally(() => (slowDone = true));
    const quick = await reader.use(async (store) => {
      expect(store).not.toBe(slowStore);
      return (await store.one<{ one: number }>('select 1 as one'))!.one;
    });
    expect(quick).toBe(1);
    expect(slowDone).toBe(false); // answered while the long one still ran, not after its turn
    const error = await slow.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PageError);
    expect((error as PageError).status).toBe(408);
    expect((error as PageError).message).toBe('the page took longer than 1.5 s and was stopped; ask for less (a shorter period, a coarser granularity, fewer groupings)');
    // every later use runs on a store without the stopped page's state
    for (let i = 0; i < 3; i++) {
      await reader.use(async (store) => {
        expect(store).not.toBe(slowStore);
        expect((await store.one<{ v: unknown }>("select getvariable('left_behind') as v"))!.v).toBeNull();
      });
    }
  }, 60_000);

  it('lets a page computed ahead (no one waiting) take longer than the limit', async () => {
    const answer = await reader.use(
      async (store) => {
        await new Promise((r) => setTimeout(r, 2000)); // past the 1.5 s limit of a request
        return (await store.one<{ one: number }>('select 1 as one'))!.one;
      },
      { timeLimit: false },
    );
    expect(answer).toBe(1);
  });

  it('gives every store DuckDB\'s memory limit', async () => {
    const limit = await reader.use(async (store) => (await store.one<{ limit: string }>("select current_setting('memory_limit') as limit"))!.limit);
    expect(limit).toMatch(/^(286\.1 MiB|300\.0 MB)$/);
  });

  it('keeps a use waiting when every store is taken, and answers it once one is free', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const a = reader.use(async () => (await held, order.push('a')));
    const b = reader.use(async () => (await held, order.push('b')));
    const c = reader.use(async () => order.push('c'));
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual([]); // two stores, both held
    release();
    await Promise.all([a, b, c]);
    expect(order.sort()).toEqual(['a', 'b', 'c']);
  });
});
