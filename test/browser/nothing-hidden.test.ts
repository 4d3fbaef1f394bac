// Nothing hidden (issue 25 §8), looked at in Chromium as a person would: at 1,400 px and on a phone every table keeps
// its name and its amount in sight, long text wraps instead of pushing columns off the page, a wide table says that
// more columns are to the side, a filtered table's Total is the total of the shown rows (to the micro-dollar), the
// charts share the page's width and draw in its dark colours, and no absolute path of the machine is printed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unitText } from '../../src/model/index.ts';
import { nightlyPageInChromium } from '../helpers/nightly-page.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { chromiumAvailable } from '../helpers/browser.ts';

// what the page functions below use, as the browser has it (declared here, not as the DOM library for the project:
// its stream types are not Node's)
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: any): any;

/** Sections whose tables are wider than a laptop screen or hold long text. */
const WIDE = ['s-detail', 's-top-resources', 's-by-endpoint', 's-waste', 's-by-template'];

function micros(text: string): bigint {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim())!;
  const v = BigInt((m[2] || '0') + `${m[3] ?? ''}000000`.slice(0, 6));
  return m[1] ? -v : v;
}

/** Where a section's name and amount cells of the first row are, against the visible part of the table's box. */
async function inSight(page: Page, section: string): Promise<{ box: [number, number]; name?: [number, number]; amount?: [number, number]; wrap?: [number, number] }> {
  return page.evaluate((id) => {
    const s = document.getElementById(id)!;
    const scroll = s.querySelector('.scroll')!;
    const r = scroll.getBoundingClientRect();
    const span = (el: any) => (el ? ([el.getBoundingClientRect().left, el.getBoundingClientRect().right] as [number, number]) : undefined);
    const row = scroll.querySelector('tbody tr')!;
    return {
      box: [Math.max(r.left, 0), Math.min(r.left + scroll.clientWidth, window.innerWidth)],
      name: span(row.querySelector('td.pin-l')),
      amount: span(row.querySelector('td.pin-r')),
      wrap: span(row.querySelector('td.wrap')),
    };
  }, section);
}

describe.skipIf(!chromiumAvailable)('nothing hidden: the HTML report at laptop and phone widths', () => {
  const nightly = suiteFixture(() => nightlyPageInChromium('gpuledger-hidden-'));

  async function open(width: number, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const context = await nightly.browser.newContext({ colorScheme, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(nightly.url);
    return page;
  }

  it('at 1,400 px every wide table keeps its name and amount in view, wraps long text and says what is to the side', async () => {
    const page = await open(1400);
    for (const id of WIDE) {
      const at = await inSight(page, id);
      expect(at.amount, `${id} has a pinned amount column`).toBeDefined();
      expect(at.amount![0], `${id}: the amount starts inside the table's box`).toBeGreaterThanOrEqual(at.box[0] - 1);
      expect(at.amount![1], `${id}: the amount ends inside the table's box`).toBeLessThanOrEqual(at.box[1] + 1);
      if (at.wrap) expect(at.wrap[1], `${id}: wrapped text ends inside the box`).toBeLessThanOrEqual(at.box[1] + 1);
    }
    // Detail is wider than the page: a cue says so, and scrolling to the end makes it say what is to the left
    const cue = page.locator('#s-detail p.cue');
    await expect.poll(() => cue.isVisible()).toBe(true);
    expect(await cue.textContent()).toMatch(/more columns? to the right/);
    await page.locator('#s-detail .scroll').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => cue.textContent()).toMatch(/columns? to the left/);
    const after = await inSight(page, 's-detail');
    expect(after.name![0], 'the name stays at the left edge when scrolled').toBeGreaterThanOrEqual(after.box[0] - 1);
    expect(after.amount![1]).toBeLessThanOrEqual(after.box[1] + 1);
    await page.context().close();
  });

  it('on a phone each table shows its name and its amount; "All columns" brings back the rest', async () => {
    const page = await open(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page itself never scrolls sideways').toBeLessThanOrEqual(390);
    for (const id of WIDE) {
      const at = await inSight(page, id);
      for (const [what, span] of [['name', at.name], ['amount', at.amount]] as const) {
        expect(span, `${id} has a ${what}`).toBeDefined();
        expect(span![0], `${id}: ${what} in view`).toBeGreaterThanOrEqual(-1);
        expect(span![1], `${id}: ${what} in view`).toBeLessThanOrEqual(391);
      }
    }
    const detail = page.locator('#s-detail');
    const shown = () => detail.locator('thead tr.names th').evaluateAll((ths) => ths.filter((th: any) => th.getClientRects().length > 0).length);
    const few = await shown();
    await detail.locator('button.all-cols').click();
    expect(await shown()).toBeGreaterThan(few);
    expect(await detail.locator('button.all-cols').getAttribute('aria-pressed')).toBe('true');
    if (process.env.GPULEDGER_SCREENSHOTS) await page.screenshot({ path: join(process.env.GPULEDGER_SCREENSHOTS, 'html-report-phone.png') });
    await page.context().close();
  });

  it('a filtered table shows the total of the rows it shows, exact, and the full total again when cleared', async () => {
    const page = await open(1400);
    const section = page.locator('#s-detail');
    const total = section.locator('thead tr.totals th[data-fmt="usd"]').first();
    const before = { v: await total.getAttribute('data-v'), text: await total.textContent() };
    await section.locator('input[type=search]').fill('serverless');
    const shownValues = await section.locator('tbody tr:not([hidden]) td.pin-r').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-v') ?? ''));
    expect(shownValues.length).toBeGreaterThan(0);
    const sum = shownValues.reduce((a, v) => a + micros(v), 0n);
    const exact = `${sum < 0n ? '-' : ''}${(sum < 0n ? -sum : sum) / 1_000_000n}.${((sum < 0n ? -sum : sum) % 1_000_000n).toString().padStart(6, '0')}`;
    expect(await total.getAttribute('data-v')).toBe(exact);
    expect(await total.textContent()).toBe(unitText(exact, 'usd', { micros: true }));
    expect(await section.locator('thead tr.totals th[scope=row]').textContent()).toBe('Total of shown rows');
    await section.locator('input[type=search]').fill('');
    expect(await total.getAttribute('data-v')).toBe(before.v);
    expect(await total.textContent()).toBe(before.text);
    await page.context().close();
  });

  it('charts share the width and draw in the dark colours in dark mode', async () => {
    const page = await open(1400, 'dark');
    const sizes = await page.evaluate(() => {
      const main = document.querySelector('main')!.getBoundingClientRect().width;
      return Array.from(document.querySelectorAll('figure.chart')).map((f: any) => f.getBoundingClientRect().width / main);
    });
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    // two side by side fill the row: each close to half of it, not a fixed 760 px
    expect(sizes[0]! + sizes[1]!).toBeGreaterThan(0.95);
    const colours = await page.evaluate(() => {
      const svg = document.querySelector('figure.chart svg')!;
      return { bg: getComputedStyle(svg.querySelector('.c-bg')!).fill, ink: getComputedStyle(svg.querySelector('.c-ink')!).fill, page: getComputedStyle(document.body).backgroundColor };
    });
    expect(colours.bg).not.toBe('rgb(255, 255, 255)');
    expect(colours.ink).not.toBe('rgb(31, 41, 55)');
    await page.context().close();
  });

  it('prints no absolute path of the machine', () => {
    const html = readFileSync(nightly.out.html!.path, 'utf8');
    expect(html).not.toContain(nightly.dir);
    expect(html).not.toContain(process.cwd());
    expect(html).toMatch(/Definition<\/th><td>gpuledger&#39;s reports\/nightly\.yaml|Definition<\/th><td>reports\/nightly\.yaml/);
  });
});
