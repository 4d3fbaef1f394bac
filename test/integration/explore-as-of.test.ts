// /explore?as_of=T shows the figures as loaded at T: a pod bucket loaded at T with 10 USD (and a record gone later),
// then read again after T at 500 USD (a restatement) with a new record. The loads go through the real loader, which
// records the restatements as a sync does; serve reads the published file. A reader answering with its own
// allocation rules keeps answering with them after an as_of view (the as-of shadow shares their temp catalog).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restatedExplorer, type RestatedExplorer } from '../helpers/restated-explorer.ts';

describe('the cost explorer as loaded at a past moment', () => {
  let csv: RestatedExplorer['csv'];
  let stop: RestatedExplorer['stop'] | undefined;
  let knownAt: string;
  let day: string;

  beforeAll(async () => {
    ({ day, knownAt, csv, stop } = await restatedExplorer('gpuledger-explore-as-of-'));
  }, 60_000);
  afterAll(async () => {
    await stop?.();
  });

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
