// The HTML report file in a real browser (issue 20): opened from file:// with the network cut, it loads with no
// console error and asks for nothing but itself; tables sort and filter; a template links to its resources; the CSV
// download holds exactly the rows shown. Screenshots of the light and dark page go to docs/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nightlyPageInChromium } from '../helpers/nightly-page.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { chromiumAvailable, watchedPage } from '../helpers/browser.ts';
import { readHtmlTables } from '../helpers/html-read.ts';

describe.skipIf(!chromiumAvailable)('the HTML report in Chromium', () => {
  const nightly = suiteFixture(() => nightlyPageInChromium('gpuledger-browser-'));

  it('opens from file:// with the network cut: no console error, no request but the file itself', async () => {
    const w = await watchedPage(nightly.browser, { allow: (u) => u === nightly.url });
    await w.page.goto(nightly.url);
    expect((await w.page.locator('h1').textContent())?.trim()).toBe('GPU cloud spend – nightly report');
    expect(await w.page.locator('figure.chart svg').count()).toBeGreaterThanOrEqual(2);
    expect(w.errors).toEqual([]);
    expect(w.requests).toEqual([nightly.url]);
    await w.page.context().close();
  });

  it('sorts a table by a column, both ways, by the exact values', async () => {
    const w = await watchedPage(nightly.browser, { allow: (u) => u === nightly.url });
    await w.page.goto(nightly.url);
    const section = w.page.locator('#s-top-resources');
    const header = section.locator('th[data-field="month_to_date"]');
    const values = async () => (await section.locator('tbody tr td:nth-child(9)').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-v')))));
    await header.locator('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    const up = await values();
    expect(up).toEqual([...up].sort((a, b) => a - b));
    await header.locator('button').press('Enter');
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    const down = await values();
    expect(down).toEqual([...up].sort((a, b) => b - a));
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('filters rows as one types, and says how many are shown', async () => {
    const w = await watchedPage(nightly.browser, { allow: (u) => u === nightly.url });
    await w.page.goto(nightly.url);
    const section = w.page.locator('#s-top-resources');
    const all = await section.locator('tbody tr').count();
    await section.locator('input[type=search]').fill('serverless');
    const visible = await section.locator('tbody tr:not([hidden])').count();
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(all);
    for (const text of await section.locator('tbody tr:not([hidden])').allTextContents()) expect(text.toLowerCase()).toContain('serverless');
    expect((await section.locator('.count').textContent())?.trim()).toBe(`${visible} of ${all} rows`);
    await w.page.context().close();
  });

  it('drills from a template to its resources and back', async () => {
    const w = await watchedPage(nightly.browser, { allow: (u) => u === nightly.url });
    await w.page.goto(nightly.url);
    const link = w.page.locator('#s-by-template tbody a[data-filter]').first();
    const template = (await link.getAttribute('data-filter'))!;
    await link.click();
    expect(new URL(w.page.url()).hash).toBe('#s-top-resources');
    const section = w.page.locator('#s-top-resources');
    expect(await section.locator('input[type=search]').inputValue()).toBe(template);
    const shown = section.locator('tbody tr:not([hidden])');
    expect(await shown.count()).toBeGreaterThan(0);
    for (const t of await shown.locator('td:nth-child(7)').allTextContents()) expect(t).toBe(template);
    expect(await shown.count()).toBeLessThan(await section.locator('tbody tr').count());
    await w.page.goBack();
    expect(new URL(w.page.url()).hash).toBe('');
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('downloads the rows shown as CSV, exact values and field names', async () => {
    const w = await watchedPage(nightly.browser, { allow: (u) => u === nightly.url || u.startsWith('blob:') });
    await w.page.goto(nightly.url);
    const section = w.page.locator('#s-by-gpu-type');
    const [download] = await Promise.all([w.page.waitForEvent('download'), section.locator('button[data-csv]').click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    const t = readHtmlTables(readFileSync(nightly.out.html!.path, 'utf8')).get('s-by-gpu-type')!;
    const csvField = (s: string) => (/[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    expect(text).toBe([t.fields, ...t.rows].map((r) => r.map(csvField).join(',') + '\r\n').join(''));
    expect(download.suggestedFilename()).toMatch(/^nightly-2026-11-\d\d-by-gpu-type\.csv$/);
    await w.page.context().close();
  });

  it.each(['light', 'dark'] as const)('renders in %s mode (screenshot for docs/)', async (scheme) => {
    const w = await watchedPage(nightly.browser, { colorScheme: scheme, allow: (u) => u === nightly.url });
    await w.page.goto(nightly.url);
    const bg = await w.page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    expect(bg).toBe(scheme === 'dark' ? 'rgb(15, 20, 25)' : 'rgb(255, 255, 255)');
    if (process.env.GPULEDGER_SCREENSHOTS) await w.page.screenshot({ path: join(process.env.GPULEDGER_SCREENSHOTS, `html-report-${scheme}.png`) });
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });
});
