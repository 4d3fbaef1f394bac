// /explore?as_of=T shows the figures as loaded at T: a pod bucket loaded at T with 10 USD (and a record gone later),
// then read again after T at 500 USD (a restatement) with a new record. The loads go through the real loader, which
// records the restatements as a sync does; serve reads the published file. A reader answering with its own
// allocation rules keeps answering with them after an as_of view (the as-of shadow shares their temp catalog).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { silentLogger } from '../../src/util/log.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { get } from '../helpers/raw-http.ts';
import { restatedDatabase } from '../helpers/restated-database.ts';
import type { TempDir } from '../helpers/temp-dir.ts';

describe('the cost explorer as loaded at a past moment', () => {
  let tmp: TempDir;
  let serve: RunningServer;
  let knownAt: string;
  let day: string;

  beforeAll(async () => {
    ({ tmp, day, knownAt } = await restatedDatabase('gpuledger-explore-as-of-'));
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
