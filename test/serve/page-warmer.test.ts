// Pages computed when a new file is published (issue 28 §2): serve computes the default pages in the background, one
// at a time, as soon as it sees a newly published file, so the first visitor's request runs no SQL; a request for a
// page under way waits on that computation; a newer publish is warmed again, with its own data.
import { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPages } from '../../src/serve/default-pages.ts';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { pageWarmer } from '../../src/serve/page-warmer.ts';
import { writeSessions } from '../../src/store/shared-database.ts';
import { createLogger, silentLogger } from '../../src/util/log.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';
import type { TempDir } from '../helpers/temp-dir.ts';
import { testConfig } from '../helpers/report-fixtures.ts';

// every statement DuckDB is given, counted at the client (the statements a request made serve run)
let statements = 0;
for (const method of ['run', 'runAndReadAll', 'stream', 'streamAndReadAll'] as const) {
  const proto = DuckDBConnection.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const original = proto[method]!;
  proto[method] = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the page warmer', () => {
  it('computes the pages one at a time in order, and a page asked for meanwhile shares its computation', async () => {
    let running = 0;
    let most = 0;
    const computed: string[] = [];
    const warmer = pageWarmer({
      identity: () => 'file-1',
      compute: async (url) => {
        running++;
        most = Math.max(most, running);
        // the visitor's /c is still under way when the warm-up comes to it
        await new Promise((resolve) => setTimeout(resolve, url.pathname === '/c' ? 100 : 5));
        computed.push(url.pathname);
        running--;
        return { status: 200, body: url.pathname };
      },
      pages: ['/a', '/b', '/c'],
      log: silentLogger,
    });
    const [asked, again] = [warmer.answer(new URL('http://x/c')), warmer.answer(new URL('http://x/c'))];
    expect(asked).toBe(again);
    const done = await warmer.ready();
    await warmer.close();
    expect(most).toBe(2); // the warm-up's one page beside the visitor's
    expect(computed.sort()).toEqual(['/a', '/b', '/c']);
    expect(done?.pages.map((p) => [p.path, p.status])).toEqual([['/a', 200], ['/b', 200], ['/c', 200]]);
    expect(done?.superseded).toBe(false);
  });

  it('stops warming a file once a newer one is published and warms the newer one', async () => {
    let identity = 'old';
    const computed: string[] = [];
    const warmer = pageWarmer({
      identity: () => identity,
      compute: async (url) => {
        await tick();
        computed.push(`${identity}${url.pathname}`);
        if (url.pathname === '/a') identity = 'new'; // published while /a was being computed
        return { status: 200 };
      },
      pages: ['/a', '/b'],
      pollMs: 10,
      log: silentLogger,
    });
    const first = await warmer.ready();
    expect(first).toMatchObject({ identity: 'old', superseded: true });
    const second = await warmer.ready();
    await warmer.close();
    expect(second).toMatchObject({ identity: 'new', superseded: false });
    expect(computed).toEqual(['old/a', 'new/a', 'new/b']);
  });

  it('says a page that failed and goes on with the next', async () => {
    const warmer = pageWarmer({
      identity: () => 'f',
      compute: async (url) => {
        if (url.pathname === '/bad') throw new Error('the view is broken');
        return { status: 200 };
      },
      pages: ['/bad', '/good'],
      log: silentLogger,
    });
    const done = await warmer.ready();
    await warmer.close();
    expect(done?.pages).toMatchObject([{ path: '/bad', error: 'the view is broken' }, { path: '/good', status: 200 }]);
  });
});

describe('gpuledger serve after a publish', () => {
  let tmp: TempDir;
  let serve: RunningServer;
  const config = testConfig({ timeZone: 'UTC' });

  beforeAll(async () => {
    tmp = await syncedDatabase('gpuledger-serve-warm-');
    serve = await startServe({ dbPath: tmp.db, config, host: '127.0.0.1', port: 0, log: silentLogger });
  }, 120_000);
  afterAll(async () => {
    await serve?.close();
    tmp?.cleanup();
  });

  const get = async (path: string) => {
    const before = statements;
    const res = await fetch(serve.url + path);
    return { status: res.status, body: await res.text(), statements: statements - before };
  };

  it('has every report at its default period and the pages it links to computed before anyone asks', async () => {
    const done = await serve.warmed();
    expect(defaultPages(config).slice(0, 2)).toEqual(['/report/nightly', '/report/finance-monthly']);
    expect(done?.pages.map((p) => [p.path, p.status ?? p.error])).toEqual(defaultPages(config).map((p) => [p, 200]));
    for (const path of defaultPages(config)) {
      const page = await get(path);
      expect([path, page.status, page.statements]).toEqual([path, 200, 0]);
    }
    // a page not computed ahead is computed when asked
    expect((await get('/report/nightly?period=2026-10')).statements).toBeGreaterThan(0);
    // a report made per allocation value has no page of its own – not warmed, and asked for it says what makes it
    expect(defaultPages(config)).not.toContain('/report/showback');
    const showback = await get('/report/showback');
    expect(showback.status).toBe(404);
    expect(showback.body).toContain('report showback is rendered per value of an allocation category: run gpuledger report --report showback --category <category>');
  });

  it("computes the config's saved views too, and says in the log at once a view whose filter value is in no row", async () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', timestamps: false, stream: { write: (line: string) => lines.push(line) > 0 } as unknown as NodeJS.WritableStream });
    const views = [
      { name: 'pods-mtd', title: 'Pods, month to date', range: 'mtd', by: ['template'], filters: [{ dimension: 'family', value: 'pod' }] },
      { name: 'no-such-template', title: 'A template renamed since', range: '30d', by: ['resource'], filters: [{ dimension: 'template', value: 'renamed-template' }] },
    ];
    const withViews = testConfig({ timeZone: 'UTC', views } as Parameters<typeof testConfig>[0]);
    expect(defaultPages(withViews)).toEqual(expect.arrayContaining(['/explore', '/explore/pods-mtd', '/explore/no-such-template']));
    const open = await startServe({ dbPath: tmp.db, config: withViews, host: '127.0.0.1', port: 0, log });
    try {
      const done = await open.warmed();
      expect(done?.pages.find((p) => p.path === '/explore/pods-mtd')?.status).toBe(200);
      expect(lines.join('')).toMatch(/^warn {2}\/explore\/no-such-template answers 400: view 'no-such-template': filter template:renamed-template: no template 'renamed-template' in the data; values include '.+'\n$/);
    } finally {
      await open.close();
    }
  });

  it('computes them again for a newly published file, with its data', async () => {
    await serve.warmed();
    expect((await get('/report/nightly')).body).toContain('SIMULATED DATA – not a real account: sim');
    await writeSessions({ dbPath: tmp.db, command: 'test' }).write((store) => store.run('update _meta_accounts set simulated = false'));
    // the server notices the publish on its own (a look every second); nobody has asked yet
    let done = await serve.warmed();
    while (!done || done.superseded) done = await serve.warmed();
    const page = await get('/report/nightly');
    expect(page.statements).toBe(0);
    expect(page.body).not.toContain('<p class="banner"');
  }, 60_000);
});
