// The explorer's periods that hold less than a whole one, read in Chromium where a person reads them (issue 38 §4):
// a week or month the range cuts and the day still loading are marked – lighter, hatched bars with a note under the
// axis, a note under the heading – in light and dark and on a phone; the change compares like with like while a day
// is loading and says so in the headline and under Change; an as_of before the first load says nothing was loaded
// then, instead of drawing $0. The data: a synced simulator account, loaded to 2026-11-20 12:34:56 UTC.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { chromiumAvailable, watchedPage } from '../helpers/browser.ts';
import { get } from '../helpers/raw-http.ts';
import { loopback, serveInChromium, type ServedChromium } from '../helpers/served-chromium.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';

// page.evaluate runs in the browser: its globals, untyped here
declare function getComputedStyle(element: any): any;

interface Fixture extends ServedChromium {
  /** The first sync's end (its last load), to the second it ended in, as the page names it. */
  firstLoad: string;
  /** cost_daily's total over [from, to], exact micro-dollars. */
  total: (from: string, to: string) => Promise<bigint>;
}

describe.skipIf(!chromiumAvailable)('the explorer marks what its figures do not cover', () => {
  const ui = suiteFixture<Fixture>(async () => {
    const tmp = await syncedDatabase('gpuledger-explore-partial-');
    const store = await openStore({ path: tmp.db, readOnly: true, command: 'test' });
    // the run of the earliest load, to its last load: a load of one source alone may have no spend in the range
    const first = await store.one<{ at: string }>(
      `select strftime(date_trunc('second', max(extracted_at) + interval 999999 microseconds), '%Y-%m-%dT%H:%M:%SZ') as at
       from _meta_loads where run_id = (select run_id from _meta_loads order by extracted_at limit 1)`,
    );
    await store.close();
    const served = await serveInChromium(tmp, { warmPages: false });
    const total = async (from: string, to: string) => {
      const s = await openStore({ path: tmp.db, readOnly: true, command: 'test' });
      try {
        const row = await s.one<{ t: string }>(`select coalesce(sum(amount), 0)::varchar as t from cost_daily where day between $1::date and $2::date`, [from, to]);
        return decimalStringToMicros(row!.t);
      } finally {
        await s.close();
      }
    };
    return { ...served, firstLoad: first!.at, total };
  });
  const open = async (path: string, scheme: 'light' | 'dark' = 'light') => {
    const w = await watchedPage(ui.browser, { colorScheme: scheme, allow: loopback });
    const res = await w.page.goto(`${ui.serve.url}${path}`);
    expect(res?.status(), path).toBe(200);
    return w;
  };

  it.each(['light', 'dark'] as const)('per week (%s): the cut first week and the loading last week are lighter, hatched and labelled, the whole weeks not', async (scheme) => {
    // 2026-10-22 is a Thursday: its week holds 4 of the range's days; the last week 5, the 20th loaded to 12:34
    const { page, errors } = await open('/explore?preset=30d&granularity=week&by=family', scheme);
    const heads = await page.locator('#explore-table thead th.num').allInnerTexts();
    expect(heads.slice(0, 5).map((h) => h.replace(/\s+/g, ' ').trim())).toEqual(['2026-10-19 4 of 7 days', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16 5 of 7 days so far']);
    // in the chart: each bar of a partial week hatched and lighter, no bar of a whole week
    const bars = await page.locator('figure.chart svg rect title').allTextContents();
    const partialBars = await page.locator('figure.chart svg rect.partial title').allTextContents();
    expect(partialBars.length).toBeGreaterThan(0);
    for (const t of bars) expect(partialBars.includes(t), t).toBe(/· 2026-1(0-19|1-16) \(/.test(t));
    expect(await page.locator('figure.chart svg rect[fill="url(#partial-hatch)"]').count()).toBe(partialBars.length);
    const bar = page.locator('figure.chart svg rect.partial').first();
    expect(Number(await bar.evaluate((el: any) => getComputedStyle(el).fillOpacity))).toBeLessThan(1);
    // the stripes are the chart's own background, so they read as gaps in either scheme
    const [stripe, background] = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      return [getComputedStyle(doc.querySelector('figure.chart svg .c-hatch')).stroke, getComputedStyle(doc.querySelector('figure.chart svg .c-bg')).fill];
    });
    expect(stripe).toBe(background);
    expect(await page.locator('figure.chart svg text.partial-note').allTextContents()).toEqual(['4 of 7 days', '5 of 7 days so far']);
    expect(await page.locator('p.partial-note').innerText()).toBe(
      'Partial weeks are drawn lighter and hatched: the week of Oct 19 holds 4 of its 7 days (Oct 22 – Oct 25: the range starts on Oct 22); the week of Nov 16 holds 5 of its 7 days (Nov 16 – Nov 20: the range ends on Nov 20); Nov 20 is loaded only to 12:34 UTC, the day so far.',
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('per month: the months the range covers in part say how many of their days it holds', async () => {
    const { page } = await open('/explore?from=2026-10-15&to=2026-11-20&granularity=month&by=family');
    const heads = (await page.locator('#explore-table thead th.num').allInnerTexts()).map((h) => h.replace(/\s+/g, ' ').trim());
    expect(heads.slice(0, 2)).toEqual(['2026-10-01 17 of 31 days', '2026-11-01 20 of 30 days so far']);
    expect(await page.locator('figure.chart svg text.partial-note').allTextContents()).toEqual(['17 of 31 days', '20 of 30 days so far']);
    await page.context().close();
  });

  it('on a phone, the partial note and the chart\'s marks stay in view', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${ui.serve.url}/explore?preset=30d&granularity=week&by=family`);
    const note = await page.locator('p.partial-note').boundingBox();
    expect(note!.x).toBeGreaterThanOrEqual(0);
    expect(note!.x + note!.width).toBeLessThanOrEqual(390);
    expect(await page.locator('p.partial-note').isVisible()).toBe(true);
    expect(await page.locator('figure.chart svg text.partial-note').count()).toBe(2);
    await context.close();
  });

  it('the default view\'s change compares like with like while today is loading, and the headline says so', async () => {
    const { page } = await open('/explore?preset=7d&by=family');
    // Nov 14 – 20, the 20th loaded to 12:34: the change is of Nov 14 – 19 against the first six days before, Nov 7 – 12
    expect(await page.locator('header.page p.sub').allInnerTexts()).toContain('Change: Nov 14 – Nov 19 against Nov 7 – Nov 12, ended days only (Nov 20 loaded to 12:34 UTC so far)');
    expect((await page.locator('#explore-table thead th.pin-c').innerText()).replace(/\s+/g, ' ')).toBe('Change to Nov 19');
    expect(await page.locator('#change-note').innerText()).toContain(
      'Change compares like with like: Nov 14 – Nov 19 against Nov 7 – Nov 12, the first 6 days of the previous 7 days; Nov 20 is loaded only to 12:34 UTC (the day so far), so the days from Nov 20 on count in the totals, not in the change.',
    );
    // the total row's change is the ended days' change, to the tenth of a percent
    const [now, before] = [await ui.total('2026-11-14', '2026-11-19'), await ui.total('2026-11-07', '2026-11-12')];
    expect(before).toBeGreaterThan(0n);
    const expected = (Number(((now - before) * 10_000n) / before) / 100).toFixed(1);
    const shown = await page.locator('#explore-table tfoot td.pin-c').getAttribute('data-v');
    expect(Math.abs(Number(shown) - Number(expected))).toBeLessThanOrEqual(0.1);
    // and not the whole week against the whole week before, today's half day against a full one
    const [week, weekBefore] = [await ui.total('2026-11-14', '2026-11-20'), await ui.total('2026-11-07', '2026-11-13')];
    const unlike = (Number(((week - weekBefore) * 10_000n) / weekBefore) / 100).toFixed(1);
    expect(shown).not.toBe(unlike);
    await page.context().close();
  });

  it('a range whose days have all ended compares whole with whole and says nothing of loading', async () => {
    const { page } = await open('/explore?from=2026-11-10&to=2026-11-16&by=family');
    expect((await page.locator('#explore-table thead th.pin-c').innerText()).trim()).toBe('Change');
    expect(await page.locator('#change-note').innerText()).toContain('Change: against the previous 7 days, the same number of days just before.');
    expect(await page.locator('p.partial-note').count()).toBe(0);
    expect(await page.locator('figure.chart svg rect.partial').count()).toBe(0);
    await page.context().close();
  });

  it('an as_of before the first load says nothing was loaded then and by when the first sync had loaded, and draws no $0', async () => {
    const { page } = await open('/explore?as_of=2026-11-15&by=family');
    expect(await page.locator('#nothing-loaded').innerText()).toBe(
      `Nothing had been loaded at 2026-11-15T23:59:59.999Z: the first sync had loaded by ${ui.firstLoad}. There are no figures as loaded then, so no chart or table is drawn: $0 would read as no spend.`,
    );
    expect(await page.locator('#explore-table').count()).toBe(0);
    expect(await page.locator('figure.chart').count()).toBe(0);
    expect(await page.locator('main').innerText()).not.toMatch(/\$[0-9,]+\.\d\d/);
    // a link to the view as loaded at the first load, which has figures
    await page.locator('a', { hasText: 'the view as loaded by the first sync' }).click();
    await page.waitForURL(/as_of=/);
    expect(await page.locator('#explore-table tfoot td.pin-t').getAttribute('data-v')).not.toBe('0.000000');
    await page.context().close();
    // the CSV has no page to say it on: one line, not an empty file
    const csv = await get(`${ui.serve.url}/explore.csv?as_of=2026-11-15`);
    expect(csv.status).toBe(400);
    expect(csv.body.trim()).toBe(`as_of 2026-11-15: nothing had been loaded at 2026-11-15T23:59:59.999Z: the first sync had loaded by ${ui.firstLoad}; ask for a later moment, or leave as_of out for the figures as loaded now`);
  });
});
