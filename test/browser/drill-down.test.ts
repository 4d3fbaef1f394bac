// The drill-down grown up and the SQL page's help (issue 27 §3), read in Chromium as a person reads them: every level
// shows a chart of its groups over the period, the level's total (equal to its rows, to the micro-dollar) and each
// row's share, titles name what they show (the family's label, the resource's name, not its id), and a link opens
// the same view in the explorer with the range, grouping and filters in its URL. The SQL page lists the public views
// with their columns and descriptions, and every example query runs.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_QUERIES } from '../../src/serve/sql-page.ts';
import { writeSessions } from '../../src/store/shared-database.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { chromiumAvailable, watchedPage } from '../helpers/browser.ts';
import { loopback, serveInChromium } from '../helpers/served-chromium.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';

// page.evaluate runs in the browser: its globals, untyped here
declare const document: any;

describe.skipIf(!chromiumAvailable)('drill-down levels and the SQL page in Chromium', () => {
  // warmPages off: this test opens its few pages itself; computing the nine default pages ahead (~2 CPU-s) is work nobody reads
  const ui = suiteFixture(async () => serveInChromium(await syncedDatabase('gpuledger-drill-'), { warmPages: false }));

  /** A level's section as shown: chart, rows (text and exact amount), its total, the explorer link. */
  async function level(page: Page, id: string) {
    const s = page.locator(`#${id}`);
    const rows = s.locator('tbody tr');
    const shown: { name: string; share: string; amount: bigint }[] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const cells = rows.nth(i).locator('td');
      const n = await cells.count();
      shown.push({ name: (await cells.first().textContent())!.trim(), share: (await cells.nth(n - 2).textContent())!.trim(), amount: decimalStringToMicros((await cells.last().getAttribute('data-v'))!) });
    }
    const total = s.locator('thead tr.totals th[data-fmt="usd"]');
    return {
      title: (await s.locator('h2').textContent())!.trim(),
      charts: await s.locator('figure.chart svg').count(),
      chartLabel: await s.locator('figure.chart').first().getAttribute('aria-label'),
      rows: shown,
      total: decimalStringToMicros((await total.getAttribute('data-v'))!),
      totalText: (await total.textContent())!.trim(),
      explore: new URL((await s.locator('a', { hasText: 'Open in the explorer' }).getAttribute('href'))!, ui.serve.url),
    };
  }

  const shareSum = (rows: { share: string }[]) => rows.reduce((a, r) => a + Number(r.share.replace(/[^\d.-]/g, '')), 0);

  it('shows every level with a chart, its total and shares, names as titles, and the same view in the explorer', async () => {
    const w = await watchedPage(ui.browser, { allow: loopback });
    const page = w.page;
    await page.goto(`${ui.serve.url}/drill?period=2026-11-01..2026-11-20`);
    const families = await level(page, 's-families');
    expect(families.charts).toBe(1);
    expect(families.rows.length).toBeGreaterThan(1);
    expect(families.total).toBe(families.rows.reduce((a, r) => a + r.amount, 0n));
    expect(families.totalText).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(shareSum(families.rows)).toBeCloseTo(100, 0);
    for (const r of families.rows) expect(r.share).toMatch(/^\d+\.\d %$/);
    expect(Object.fromEntries(families.explore.searchParams)).toEqual({ from: '2026-11-01', to: '2026-11-20', by: 'family' });
    // families by the model's label (as the chart's legend says them), their id beside
    expect(families.rows.map((r) => r.name)).toContain('Pods');
    expect(await page.locator('#s-families tbody tr', { hasText: 'Pods' }).first().locator('td').nth(1).textContent()).toBe('pod');
    expect(families.explore.pathname).toBe('/explore');

    await page.locator('#s-families tbody a', { hasText: 'Pods' }).click();
    await page.waitForURL(/family=pod$/);
    const templates = await level(page, 's-template');
    expect(templates.title).toBe('Pods by template');
    expect(templates.charts).toBe(1);
    expect(templates.total).toBe(families.rows.find((r) => r.name === 'Pods')!.amount);
    expect(templates.total).toBe(templates.rows.reduce((a, r) => a + r.amount, 0n));
    expect(templates.explore.searchParams.get('by')).toBe('template');
    expect(templates.explore.searchParams.getAll('filter')).toEqual(['family:pod']);
    expect(await page.locator('nav[aria-label="Drill-down path"] a').allTextContents()).toEqual(['All families', 'Pods']);

    const template = templates.rows.find((r) => r.name !== '(none)') ?? templates.rows[0]!;
    await page.locator('#s-template tbody a', { hasText: template.name }).first().click();
    await page.waitForURL(/by=template/);
    const resources = await level(page, 's-resources');
    expect(resources.title).toBe(`Resources of Pods · Template: ${template.name}`);
    expect(resources.total).toBe(template.amount);
    expect(resources.explore.searchParams.getAll('filter')).toEqual(['family:pod', `template:${template.name}`]);
    expect(resources.explore.searchParams.get('by')).toBe('resource');

    // the resource is titled by its name, not its id
    const first = page.locator('#s-resources tbody tr').first();
    const name = (await first.locator('td').first().textContent())!.trim();
    const id = (await first.locator('td').nth(1).textContent())!.trim();
    await first.locator('a').click();
    await page.waitForURL(/resource=/);
    const days = await level(page, 's-resource');
    expect(days.title).toBe(`Daily cost of ${name}`);
    expect(days.chartLabel).toBe(`Daily cost of ${name} by component`);
    expect(days.total).toBe(resources.rows[0]!.amount);
    expect(days.explore.searchParams.getAll('filter')).toEqual(['family:pod', `template:${template.name}`, `resource:${id}`]);
    expect((await page.locator('nav[aria-label="Drill-down path"] a').allTextContents()).at(-1)).toBe(name);
    expect(w.errors).toEqual([]);
    await page.context().close();
  });

  it('lists the public views with their columns and descriptions, and runs every example query', async () => {
    const w = await watchedPage(ui.browser, { allow: loopback });
    const page = w.page;
    await page.goto(`${ui.serve.url}/sql`);
    const schema = page.locator('#s-schema');
    const costDaily = schema.locator('details', { has: page.locator('summary code', { hasText: /^cost_daily$/ }) });
    expect(await costDaily.locator('summary').textContent()).toMatch(/^cost_daily – One row per account, family, UTC day/);
    await costDaily.locator('summary').click();
    const amount = costDaily.locator('tbody tr', { has: page.locator('td', { hasText: /^amount$/ }) });
    expect((await amount.locator('td').allTextContents()).map((t) => t.trim())).toEqual(['amount', expect.stringMatching(/^DECIMAL/), 'USD, exact DECIMAL (micro-dollars).']);
    // the catalog of the published database and the files agree: no public view without its columns
    expect(await schema.locator('details').count()).toBeGreaterThan(20);
    expect(await schema.locator('p.note', { hasText: 'Not in this database yet.' }).count()).toBe(0);

    const examples = page.locator('#s-examples li > a');
    const hrefs = await examples.evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href));
    expect(hrefs.length).toBe(EXAMPLE_QUERIES.length);
    for (const href of hrefs) {
      const res = await page.goto(href);
      expect(res?.status(), href).toBe(200);
      expect(await page.locator('p.error').count(), href).toBe(0);
      expect(await page.locator('#s-result tbody tr').count(), href).toBeGreaterThan(0);
    }
    expect(w.errors).toEqual([]);
    await page.context().close();
  });

  // a family's level light, dark and on a phone, for a reviewer (the README's pictures are the layout test's)
  it.each(['light', 'dark'] as const)('shows a family\'s level in %s mode (screenshot under out/)', async (scheme) => {
    const w = await watchedPage(ui.browser, { allow: loopback, colorScheme: scheme });
    await w.page.goto(`${ui.serve.url}/drill?period=2026-11-01..2026-11-20&family=serverless`);
    expect(await w.page.locator('figure.chart svg').count()).toBeGreaterThan(0);
    await w.page.screenshot({ path: 'out/screens/drill-test-' + scheme + '.png' });
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('fits a phone (screenshot under out/)', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${ui.serve.url}/drill?period=2026-11-01..2026-11-20&family=serverless`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'out/screens/drill-test-phone.png' });
    await context.close();
  });

  it('keeps a hostile resource name as text in the title, the breadcrumb and the table', async () => {
    const evil = `<img src=x onerror="document.title='owned'">`;
    let resource = '';
    await writeSessions({ dbPath: ui.tmp.db, command: 'test' }).write(async (store) => {
      resource = (await store.one<{ id: string }>("select resource_id as id from fct_cost_daily where family = 'pod' and resource_id is not null limit 1"))!.id;
      await store.run('update fct_cost_daily set resource_name = $1 where resource_id = $2', [evil, resource]);
    });
    const w = await watchedPage(ui.browser, { allow: loopback });
    await w.page.goto(`${ui.serve.url}/drill?family=pod&resource=${encodeURIComponent(resource)}&period=2026-11-01..2026-11-20`);
    expect((await w.page.locator('#s-resource h2').textContent())!.trim()).toBe(`Daily cost of ${evil}`);
    expect((await w.page.locator('nav[aria-label="Drill-down path"] a').last().textContent())!.trim()).toBe(evil);
    expect(await w.page.locator('img').count()).toBe(0);
    expect(await w.page.title()).toBe('Drill down');
    await w.page.context().close();
  });
});
