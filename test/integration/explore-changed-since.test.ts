// /explore?changed_since=T lists the cells restated since T: a pod bucket loaded at T with 10 USD (and a record gone
// later), then read again after T at 500 USD with a new record, through the real loader that records restatements as a
// sync does. Before, now and the difference are exact; a moment after the last load, or a day with no restatement,
// says so in one line. The CSV gives the same cells in long form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/serve/index.ts';
import { get } from '../helpers/raw-http.ts';
import { restatedExplorer, type RestatedExplorer } from '../helpers/restated-explorer.ts';

const DAY = 86_400_000;

describe('the cost explorer: what changed since a moment', () => {
  let csv: RestatedExplorer['csv'];
  let stop: RestatedExplorer['stop'] | undefined;
  let serve: RunningServer;
  let knownAt: string;
  let day: string;
  let afterLoads: string;

  beforeAll(async () => {
    ({ serve, day, knownAt, afterLoads, csv, stop } = await restatedExplorer('gpuledger-explore-changed-'));
  }, 60_000);
  afterAll(async () => {
    await stop?.();
  });

  const page = async (params: string) => {
    const res = await get(`${serve.url}/explore?${params}`);
    expect(res.status, res.body).toBe(200);
    const text = (m: string) => m.replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
    const verdict = /<p class="verdict" id="changes-verdict">([\s\S]*?)<\/p>/.exec(res.body);
    const table = /<table id="changes-table">([\s\S]*?)<\/table>/.exec(res.body);
    const rows = table ? [...table[1]!.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => text(c[1]!))) : [];
    return { verdict: verdict ? text(verdict[1]!) : undefined, rows };
  };

  it('gives each restated cell before, now and the difference, exactly, in the CSV', async () => {
    expect(await csv(`by=resource&changed_since=${encodeURIComponent(knownAt)}`)).toEqual([
      'period_start,resource_key,resource_name,amount_before,amount_now,amount_difference',
      `${day},pod-gone,,5.000000,,-5.000000`,
      `${day},pod-new,,,40.000000,40.000000`,
      `${day},pod-r,,10.000000,500.000000,490.000000`,
    ]);
    // by an allocation category: the restated pod's team and the rest, each moved by its own records
    expect(await csv(`by=category:team&changed_since=${encodeURIComponent(knownAt)}`)).toEqual([
      'period_start,category_key,category_name,amount_before,amount_now,amount_difference',
      `${day},other,other,5.000000,40.000000,35.000000`,
      `${day},research,research,10.000000,500.000000,490.000000`,
    ]);
  });

  it('shows the restated groups on the page with the verdict and the move of the whole view', async () => {
    const shown = await page(`from=${day}&to=${day}&by=resource&changed_since=${encodeURIComponent(knownAt)}`);
    expect(shown.verdict).toBe(`3 figures restated since ${knownAt}: the view's total moved by +$525.00, from $15.00 to $540.00.`);
    expect(shown.rows).toEqual([
      ['Period', 'Resource', `As loaded at ${knownAt}`, 'Now', 'Difference'],
      [day, 'pod-gone', '$5.00', '–', '-$5.00'],
      [day, 'pod-new', '–', '$40.00', '+$40.00'],
      [day, 'pod-r', '$10.00', '$500.00', '+$490.00'],
      ['Whole view', '$15.00', '$540.00', '+$525.00'],
    ]);
    // a group gone since is still a filter: it was in the figures then
    const gone = await page(`from=${day}&to=${day}&by=resource&filter=resource:pod-gone&changed_since=${encodeURIComponent(knownAt)}`);
    expect(gone.rows.slice(1)).toEqual([
      [day, 'pod-gone', '$5.00', '–', '-$5.00'],
      ['Whole view', '$5.00', '$0.00', '-$5.00'],
    ]);
    const unknown = await get(`${serve.url}/explore?by=resource&filter=resource:pod-never&changed_since=${encodeURIComponent(knownAt)}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain("filter resource:pod-never: no resource 'pod-never' in the data; values include");
    // a filter keeps to its group: only the restated pod
    const one = await page(`from=${day}&to=${day}&by=resource&filter=resource:pod-r&changed_since=${encodeURIComponent(knownAt)}`);
    expect(one.rows.slice(1)).toEqual([
      [day, 'pod-r', '$10.00', '$500.00', '+$490.00'],
      ['Whole view', '$10.00', '$500.00', '+$490.00'],
    ]);
  });

  it('says in one line that nothing changed since a moment after the last load, and lists nothing', async () => {
    const shown = await page(`from=${day}&to=${day}&by=resource&changed_since=${encodeURIComponent(afterLoads)}`);
    expect(shown).toEqual({ verdict: `No restatement since ${afterLoads}: every figure of this view ($540.00 in all) is as loaded then.`, rows: [] });
    expect(await csv(`by=resource&changed_since=${encodeURIComponent(afterLoads)}`)).toEqual(['period_start,resource_key,resource_name,amount_before,amount_now,amount_difference']);
  });

  it('says nothing changed in a range the restatement did not touch', async () => {
    const before = new Date(Date.parse(`${day}T00:00:00Z`) - 3 * DAY).toISOString().slice(0, 10);
    const shown = await page(`from=${before}&to=${before}&by=resource&changed_since=${encodeURIComponent(knownAt)}`);
    expect(shown).toEqual({ verdict: `No restatement since ${knownAt}: every figure of this view ($0.00 in all) is as loaded then.`, rows: [] });
  });

  it('refuses changed_since with as_of in one line', async () => {
    const res = await get(`${serve.url}/explore?changed_since=${encodeURIComponent(knownAt)}&as_of=${day}`);
    expect(res.status).toBe(400);
    expect(res.body).toContain('give as_of or changed_since, not both');
  });
});
