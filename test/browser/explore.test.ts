// The cost explorer in Chromium (issue 27 §2): the URL is the state (load, change a control, submit, reload: the
// same view), the controls are reached with the keyboard, dark mode draws in the page's dark colours, a group link
// adds its filter, and a hostile template name stays text. Screenshots (light, dark, phone) go to out/screens/ (the README's
// pictures are the layout test's, test/browser/screens.test.ts).
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COST_FAMILIES, FAMILIES } from '../../src/model/index.ts';
import { openStore } from '../../src/store/database.ts';
import { chromiumAvailable, watchedPage } from '../helpers/browser.ts';
import { loopback, serveInChromium } from '../helpers/served-chromium.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';

// what the page functions below use, as the browser has it (declared here, not as the DOM library for the project)
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: any): any;

const HOSTILE = `<img src=x onerror="window.__pwned=1">"'&`;
const SHOTS = 'out/screens';

describe.skipIf(!chromiumAvailable)('the cost explorer in Chromium', () => {
  const ui = suiteFixture(async () => {
    const tmp = await syncedDatabase('gpuledger-explore-browser-');
    // a template named like markup: the page must show it as text, in the table, the legend and the links
    try {
      const store = await openStore({ path: tmp.db, command: 'test' });
      const biggest = await store.one<{ name: string }>(`select template_name as name from cost_daily where template_name is not null group by all order by sum(amount) desc limit 1`);
      await store.run(`update fct_cost_daily set template_name = $1 where template_name = $2`, [HOSTILE, biggest!.name]);
      await store.close();
    } catch (e) {
      tmp.cleanup();
      throw e;
    }
    mkdirSync(SHOTS, { recursive: true });
    // warmPages off: this test opens its few pages itself; computing the nine default pages ahead (~2 CPU-s) is work nobody reads
    return serveInChromium(tmp, { warmPages: false });
  });
  const open = (scheme: 'light' | 'dark' = 'light') => watchedPage(ui.browser, { colorScheme: scheme, allow: loopback });

  it('keeps its state in the URL: load, change a control, submit, reload, the same view', async () => {
    const w = await open();
    const page = w.page;
    await page.goto(`${ui.serve.url}/explore?preset=30d&granularity=week&by=template&filter=-family:storage`);
    await page.selectOption('select[name="granularity"]', 'day');
    await page.locator('select[name="by"]').nth(1).selectOption('gpu_type');
    await page.locator('form.explore button[type="submit"]').click();
    await page.waitForURL(/granularity=day/);
    const state = async () => {
      const url = new URL(page.url());
      return {
        preset: url.searchParams.get('preset'),
        granularity: url.searchParams.get('granularity'),
        by: url.searchParams.getAll('by'),
        filters: url.searchParams.getAll('filter').filter((f) => f !== ''),
        form: {
          preset: await page.locator('select[name="preset"]').inputValue(),
          granularity: await page.locator('select[name="granularity"]').inputValue(),
          by: [await page.locator('select[name="by"]').nth(0).inputValue(), await page.locator('select[name="by"]').nth(1).inputValue()],
          kept: await page.locator('input[type="hidden"][name="filter"]').evaluateAll((els: any[]) => els.map((e) => e.value)),
        },
        table: await page.locator('#explore-table tfoot').innerText(),
      };
    };
    const before = await state();
    expect(before).toMatchObject({ preset: '30d', granularity: 'day', by: ['template', 'gpu_type'], filters: ['-family:storage'] });
    expect(before.form).toEqual({ preset: '30d', granularity: 'day', by: ['template', 'gpu_type'], kept: ['-family:storage'] });
    await page.reload();
    expect(await state()).toEqual(before);
    expect(w.errors).toEqual([]);
    expect(w.requests.filter((u) => !loopback(u))).toEqual([]);
    await page.context().close();
  });

  it('reaches every control with the keyboard and submits with Enter', async () => {
    const w = await open();
    const page = w.page;
    await page.goto(`${ui.serve.url}/explore?preset=mtd&by=family`);
    const reached = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => {
        const el = document.activeElement;
        return el && el.closest('form.explore') ? `${el.tagName.toLowerCase()}:${el.getAttribute('name') ?? el.textContent}` : '';
      });
      if (name) reached.add(name);
    }
    for (const control of ['select:preset', 'input:from', 'input:to', 'select:granularity', 'select:by', 'select:metric', 'input:filter', 'input:as_of', 'button:Show']) {
      expect(reached).toContain(control);
    }
    await page.locator('select[name="granularity"]').focus();
    await page.keyboard.press('ArrowDown'); // day → week
    await page.locator('input[name="filter"]:not([type="hidden"])').focus();
    await page.keyboard.type('-family:storage');
    await page.keyboard.press('Enter');
    await page.waitForURL(/filter=-family%3Astorage/);
    expect(new URL(page.url()).searchParams.get('granularity')).toBe('week');
    await page.context().close();
  });

  it('a group is a link that adds it as a filter', async () => {
    const w = await open();
    const page = w.page;
    await page.goto(`${ui.serve.url}/explore?preset=mtd&by=family`);
    const first = page.locator('#explore-table tbody tr').first().locator('a').first();
    // shown by the model's label, filtered by the family's id
    const label = await first.innerText();
    const family = FAMILIES.find((f) => COST_FAMILIES[f].label === label);
    expect(family, label).toBeDefined();
    await first.click();
    await page.waitForURL(/filter=family/);
    expect(new URL(page.url()).searchParams.getAll('filter')).toEqual([`family:${family}`]);
    expect(await page.locator('#explore-table tbody tr').count()).toBe(1);
    await page.context().close();
  });

  it('keeps a hostile template name as text: in the table, the chart and the filter it adds', async () => {
    const w = await open();
    const page = w.page;
    await page.goto(`${ui.serve.url}/explore?preset=mtd&by=template`);
    expect(await page.locator('#explore-table tbody a', { hasText: HOSTILE }).count()).toBe(1);
    expect(await page.locator('#explore-table img').count()).toBe(0);
    expect(await page.locator('svg text', { hasText: HOSTILE.slice(0, 15) }).count()).toBeGreaterThan(0);
    await page.locator('#explore-table tbody a', { hasText: HOSTILE }).click();
    await page.waitForURL(/filter=template/);
    expect(new URL(page.url()).searchParams.getAll('filter')).toEqual([`template:${HOSTILE}`]);
    expect(await page.locator('nav[aria-label="Filters"] q').innerText()).toBe(HOSTILE);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(w.errors).toEqual([]);
    await page.context().close();
  });

  it.each(['light', 'dark'] as const)('renders in %s mode (screenshot under out/)', async (scheme) => {
    const w = await open(scheme);
    const page = w.page;
    await page.goto(`${ui.serve.url}/explore?preset=30d&granularity=day&by=family`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe(scheme === 'dark' ? 'rgb(15, 20, 25)' : 'rgb(255, 255, 255)');
    const chartBg = await page.locator('figure.chart svg .c-bg').evaluate((el: any) => getComputedStyle(el).fill);
    expect(chartBg).toBe(scheme === 'dark' ? 'rgb(22, 27, 34)' : 'rgb(255, 255, 255)');
    await page.screenshot({ path: `${SHOTS}/explore-state-${scheme}.png`, fullPage: true });
    expect(w.errors).toEqual([]);
    await page.context().close();
  });

  it('fits a phone (screenshot under out/)', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${ui.serve.url}/explore?preset=7d&by=family`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/explore-state-phone.png`, fullPage: true });
    await context.close();
  });
});
