// /explore?as_of=T shows the figures as loaded at T: a pod bucket loaded at T with 10 USD (and a record gone later),
// then read again after T at 500 USD (a restatement) with a new record. The loads go through the real loader, which
// records the restatements as a sync does; serve reads the published file. A reader answering with its own
// allocation rules keeps answering with them after an as_of view (the as-of shadow shares their temp catalog).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBillingPage, type SpooledPage } from '../../src/extract/load-billing.ts';
import { startRun } from '../../src/extract/runs.ts';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { openStore } from '../../src/store/database.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { silentLogger } from '../../src/util/log.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { get } from '../helpers/raw-http.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';

const DAY = 86_400_000;

describe('the cost explorer as loaded at a past moment', () => {
  let tmp: TempDir;
  let serve: RunningServer;
  let knownAt: string;
  let day: string;

  beforeAll(async () => {
    tmp = tempDir('gpuledger-explore-as-of-');
    const store = await openStore({ path: tmp.db, command: 'test' });
    const runId = await startRun(store, 'sync', 'test');
    const start = new Date(Math.floor(Date.now() / DAY) * DAY - 2 * DAY);
    const end = new Date(start.getTime() + DAY);
    day = start.toISOString().slice(0, 10);
    const record = (id: string, total: string) => ({ startTime: start.toISOString(), endTime: end.toISOString(), podId: id, totalAmount: Number(total), gpuAmount: Number(total), cpuAmount: 0, diskAmount: 0 });
    let pages = 0;
    const page = (records: ReturnType<typeof record>[]): SpooledPage => {
      const file = join(tmp.dir, `page-${++pages}.json`);
      writeFileSync(file, JSON.stringify(records));
      return {
        route: 'pods',
        path: '/v2/billing/pods',
        what: `GET /v2/billing/pods [${start.toISOString()}, ${end.toISOString()}) day`,
        query: { startTime: start, endTime: end, bucketSize: 'day' },
        file,
        recordCount: records.length,
        stated: { recordCount: records.length, totals: {} },
        read: 'split',
        bytes: 100,
        warnings: [],
      };
    };
    const load = (p: SpooledPage) =>
      loadBillingPage(
        { store, runId, account: 'acme', def: BILLING_SOURCE_DEFS.pods, bucketSize: 'day', serverNow: new Date(), completeThrough: end, lastOfRange: true },
        p,
        Object.values(BILLING_SOURCE_DEFS),
      );
    await load(page([record('pod-r', '10.000000'), record('pod-gone', '5.000000')]));
    const first = await store.one<{ at: string }>(`select strftime(extracted_at, '%Y-%m-%dT%H:%M:%S.%gZ') as at from _meta_loads`);
    knownAt = first!.at;
    while (Date.now() <= new Date(knownAt).getTime() + 1) await new Promise((r) => setTimeout(r, 2));
    await load(page([record('pod-r', '500.000000'), record('pod-new', '40.000000')]));
    await refreshMaterialized(store);
    await store.close();
    const allocation = { categories: { team: { rules: [{ value: 'research', match: { resource: 'pod-r' } }], default: 'other', split: [] } } };
    serve = await startServe({ dbPath: tmp.db, config: testConfig({ timeZone: 'UTC', allocation }), host: '127.0.0.1', port: 0, log: silentLogger, cacheAnswers: false });
  }, 60_000);
  afterAll(async () => {
    await serve?.close();
    tmp?.cleanup();
  });

  const csv = async (params: string) => {
    const res = await get(`${serve.url}/explore.csv?from=${day}&to=${day}&${params}`);
    expect(res.status, res.body).toBe(200);
    return res.body.trimEnd().split(/\r?\n/);
  };

  it('shows the old figure before the restatement and the new one now', async () => {
    expect(await csv(`by=resource&as_of=${encodeURIComponent(knownAt)}`)).toEqual([
      'period_start,resource_key,resource_name,amount',
      `${day},pod-gone,,5.000000`,
      `${day},pod-r,,10.000000`,
    ]);
    expect(await csv('by=resource')).toEqual(['period_start,resource_key,resource_name,amount', `${day},pod-new,,40.000000`, `${day},pod-r,,500.000000`]);
  });

  it('answers with the reader\'s own allocation rules before and after an as_of view', async () => {
    const now = ['period_start,category_key,category_name,amount', `${day},other,other,40.000000`, `${day},research,research,500.000000`];
    expect(await csv('by=category:team')).toEqual(now);
    expect(await csv(`by=category:team&as_of=${encodeURIComponent(knownAt)}`)).toEqual([
      'period_start,category_key,category_name,amount',
      `${day},other,other,5.000000`,
      `${day},research,research,10.000000`,
    ]);
    expect(await csv('by=category:team')).toEqual(now);
  });

  it('a day as as_of means its end: everything loaded by then', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await csv(`by=resource&as_of=${today}`)).toEqual(await csv('by=resource'));
  });
});
