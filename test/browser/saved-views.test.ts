// Saved views (issue 39 §2) where a person reads them: each of the example config's three views at /explore/<name>
// in Chromium at the layout test's three viewports – its title, description and parameters in the form, nothing cut
// off – with the same figures as /explore with the same parameters; the list on /explore and the site's way to it;
// an unknown name's 404; and `report --view`'s workbook (cells, types, number formats) and HTML page, whose totals
// equal the ledger queried straight from the store, to the cent.
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withRulesReader } from '../../src/allocation/reader-rules.ts';
import { demoBaseConfig } from '../../src/config/demo-database.ts';
import type { Config } from '../../src/config/schema.ts';
import { savedViewParams, savedViewRequest } from '../../src/explore/saved-view.ts';
import { renderView, type RenderedView } from '../../src/report/index.ts';
import type { RunningServer } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/database.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { silentLogger } from '../../src/util/log.ts';
import { unitText } from '../../src/model/index.ts';
import { chromiumAvailable } from '../helpers/browser.ts';
import { layoutProblems } from '../helpers/layout-check.ts';
import { serveInChromium } from '../helpers/served-chromium.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';

/** The layout test's viewports (test/browser/screens.test.ts). */
const VIEWPORTS = [
  { name: 'light', width: 1400, height: 900, colorScheme: 'light' },
  { name: 'dark', width: 1400, height: 900, colorScheme: 'dark' },
  { name: 'phone', width: 390, height: 844, colorScheme: 'light' },
] as const;

const VIEWS = ['imaging-90d', 'gpu-by-week', 'top-templates-mtd'] as const;
/** The README's pictures of a saved view (as screens.test.ts takes the others). */
const SHOTS = fileURLToPath(new URL('../../docs/screenshots', import.meta.url));

interface Ui {
  config: Config;
  serve: RunningServer;
  browser: Browser;
  /** Per view: the ledger's total over the view's days, read straight from the store (DECIMAL text). */
  ledger: Record<string, string>;
  rendered: Record<string, RenderedView>;
  stop: () => Promise<void>;
}

/** The ledger's own figure for a view, by SQL written here from the view's meaning – not the explorer's query. */
async function ledgerTotal(store: Store, config: Config, name: string): Promise<string> {
  const view = config.views.find((v) => v.name === name)!;
  const r = await savedViewRequest(store, view);
  const days = { from: r.from, to: r.to };
  const sql: Record<string, string> = {
    'imaging-90d': `select sum(amount)::varchar as total from cost_allocated where category = 'team' and value = 'imaging' and day between $from::date and $to::date`,
    'gpu-by-week': `select sum(gpu_hours)::varchar as total from gpu_hours_daily where day between $from::date and $to::date`,
    'top-templates-mtd': `select sum(amount)::varchar as total from cost_daily where family = 'pod' and day between $from::date and $to::date`,
  };
  return (await store.one<{ total: string }>(sql[name]!, days))!.total;
}

const micros = (text: string) => decimalStringToMicros(text.replace(/[$,h\s]/g, ''));

describe.skipIf(!chromiumAvailable)('saved views in serve and report --view', () => {
  const ui = suiteFixture<Ui>(async () => {
    const tmp = await syncedDatabase('gpuledger-saved-views-');
    // the demo's settings: the example config's allocation and its three saved views
    const demo = demoBaseConfig(testConfig(), undefined);
    // and one whose filter value is in no row: refused when the page reads the data
    const ghost = { name: 'ghost', title: 'A template nobody ran', range: '30d' as const, granularity: 'day', by: ['endpoint'], filters: [{ dimension: 'template', value: 'no-such-template', exclude: false }], metric: 'cost' };
    const config = { ...demo, timeZone: 'UTC', views: [...demo.views, ghost] };
    const ledger: Record<string, string> = {};
    const rendered: Record<string, RenderedView> = {};
    try {
      await withRulesReader(tmp.db, config.allocation, async (store) => {
        for (const name of VIEWS) {
          ledger[name] = await ledgerTotal(store, config, name);
          rendered[name] = await renderView({ store, config, view: name, outDir: tmp.dir, logger: silentLogger });
        }
      });
    } catch (e) {
      tmp.cleanup();
      throw e;
    }
    const served = await serveInChromium(tmp, { config, warmPages: false });
    return { config, ledger, rendered, ...served };
  }, 180_000);

  async function open(path: string, vp: (typeof VIEWPORTS)[number]): Promise<Page> {
    const context = await ui.browser.newContext({ colorScheme: vp.colorScheme, viewport: { width: vp.width, height: vp.height } });
    const page = await context.newPage();
    const res = await page.goto(path.startsWith('file:') ? path : ui.serve.url + path);
    if (!path.startsWith('file:')) expect(res?.status(), `${path}: ${await res?.text()}`).toBe(200);
    return page;
  }

  describe.each(VIEWPORTS)('at $name ($width px)', (vp) => {
    it.each(VIEWS)('/explore/%s shows the view named, its parameters in the form, and the figures of /explore with the same parameters', async (name) => {
      const view = ui.config.views.find((v) => v.name === name)!;
      const page = await open(`/explore/${name}`, vp);
      const explorer = await open(`/explore?${savedViewParams(view)}`, vp);
      try {
        expect(await page.locator('h1').innerText()).toBe(view.title);
        const sub = await page.locator('header.page p.sub').allInnerTexts();
        expect(sub[0]).toBe(view.description);
        expect(sub.join('\n')).toContain(`Saved view ${name}`);
        // the form holds the view's parameters and leads to the normal /explore
        const form = page.locator('form.explore');
        expect(await form.getAttribute('action')).toBe('/explore');
        expect(await page.locator('select[name="preset"]').inputValue()).toBe(view.range);
        expect(await page.locator('select[name="granularity"]').inputValue()).toBe(view.granularity);
        expect(await page.locator('select[name="by"]').nth(0).inputValue()).toBe(view.by[0]);
        expect(await page.locator('select[name="metric"]').inputValue()).toBe(view.metric);
        const kept = await page.locator('input[type="hidden"][name="filter"]').evaluateAll((els: any[]) => els.map((e) => e.value));
        expect(kept).toEqual(view.filters.map((f) => `${f.exclude ? '-' : ''}${f.dimension}:${f.value}`));
        // the same figures as /explore: every cell of the table, and the total the ledger holds, to the cent
        const cells = (p: Page) => p.locator('#explore-table td').evaluateAll((els: any[]) => els.map((e) => e.dataset.v));
        expect(await cells(page)).toEqual(await cells(explorer));
        const total = await page.locator('#explore-table tfoot td.pin-t').getAttribute('data-v');
        expect(micros(total!)).toBe(micros(ui.ledger[name]!));
        expect(await page.locator('#explore-table tfoot').innerText()).toBe(await explorer.locator('#explore-table tfoot').innerText());
        // listed at the foot, and the site's navigation marks the saved views
        expect(await page.locator('#saved-views a').allInnerTexts()).toEqual(ui.config.views.map((v) => v.title));
        expect(await page.locator('nav[aria-label="Pages"] a[aria-current="page"]').innerText()).toBe('Saved views');
        expect(await layoutProblems(page)).toEqual([]);
        // only a screen the check passed becomes the README's picture: its first screenful
        if (name === 'imaging-90d') await page.screenshot({ path: join(SHOTS, `saved-view-${vp.name}.png`) });
        // editing leads to the normal explorer URL with the view's parameters
        await page.selectOption('select[name="granularity"]', 'month');
        await page.locator('form.explore button[type="submit"]').click();
        await page.waitForURL(/\/explore\?/);
        const url = new URL(page.url());
        expect(url.pathname).toBe('/explore');
        expect(url.searchParams.get('granularity')).toBe('month');
        expect(url.searchParams.getAll('by').filter((b) => b !== '')).toEqual(view.by);
      } finally {
        await page.context().close();
        await explorer.context().close();
      }
    });

    it('/explore lists the saved views, and the site navigation leads to them', async () => {
      const page = await open('/explore', vp);
      try {
        const links = page.locator('#saved-views a');
        expect(await links.allInnerTexts()).toEqual(ui.config.views.map((v) => v.title));
        expect(await links.evaluateAll((els: any[]) => els.map((e) => e.getAttribute('href')))).toEqual([...VIEWS, 'ghost'].map((n) => `/explore/${n}`));
        expect(await page.locator('nav[aria-label="Pages"] a', { hasText: 'Saved views' }).getAttribute('href')).toBe('/explore#saved-views');
        expect(await layoutProblems(page)).toEqual([]);
      } finally {
        await page.context().close();
      }
    });

    it.each(VIEWS)('report --view %s: the HTML page draws the chart and the table, its total the ledger\'s', async (name) => {
      const page = await open(pathToFileURL(ui.rendered[name]!.html.path).href, vp);
      try {
        const view = ui.config.views.find((v) => v.name === name)!;
        expect(await page.locator('h1').innerText()).toBe(view.title);
        expect(await page.locator('figure.chart svg').count()).toBe(1);
        const total = await page.locator('#explore-table tfoot td.pin-t').getAttribute('data-v');
        expect(micros(total!)).toBe(micros(ui.ledger[name]!));
        const text = await page.locator('#explore-table tfoot').innerText();
        if (view.metric === 'cost') expect(text).toContain(unitText(ui.ledger[name]!, 'usd', { micros: true }));
        expect(await layoutProblems(page)).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  });

  it('answers an unknown view with 404 and one line listing the views there are', async () => {
    const res = await fetch(`${ui.serve.url}/explore/no-such-view`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("no saved view 'no-such-view': the config's views are imaging-90d, gpu-by-week, top-templates-mtd, ghost\n");
  });

  it('answers a view whose filter value is in no row with 400 and one line naming the view, the value and values that exist', async () => {
    const res = await fetch(`${ui.serve.url}/explore/ghost`);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^view 'ghost': filter template:no-such-template: no template 'no-such-template' in the data; values include '[^\n]+'\n$/);
  });

  it.each(VIEWS)('report --view %s writes one sheet: the heading, the table with typed cells in the unit\'s format, the total the ledger\'s to the cent', async (name) => {
    const view = ui.config.views.find((v) => v.name === name)!;
    const out = ui.rendered[name]!;
    expect(out.workbook.path).toMatch(new RegExp(`gpuledger-view-${name}-\\d{4}-\\d\\d-\\d\\d_\\d{4}-\\d\\d-\\d\\d\\.xlsx$`));
    expect(out.html.path).toBe(out.workbook.path.replace(/\.xlsx$/, '.html'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out.workbook.path);
    expect(wb.worksheets.map((w) => w.name)).toEqual([name]);
    const ws = wb.worksheets[0]!;
    expect(ws.getCell('A1').value).toBe(view.title);
    expect(ws.getCell('A2').value).toBe(view.description);
    const rows: ExcelJS.Row[] = [];
    ws.eachRow((row) => rows.push(row));
    const header = rows.find((r) => (r.values as unknown[]).includes('Share'))!;
    expect((header.values as unknown[]).slice(-3)).toEqual(['Total', 'Share', 'Change']);
    const totalRow = rows.find((r) => r.getCell(1).value === 'Total')!;
    const totalCol = header.cellCount - 2;
    const cell = totalRow.getCell(totalCol);
    expect(typeof cell.value).toBe('number');
    expect(cell.numFmt).toBe(view.metric === 'cost' ? '"$"#,##0.00;-"$"#,##0.00' : '#,##0.0" h";-#,##0.0" h"');
    // the cell holds the exact figure (DECIMAL(38,6) text written as a number): equal to the ledger's to the cent
    expect(Math.round((cell.value as number) * 100)).toBe(Math.round(Number(ui.ledger[name]) * 100));
    expect(totalRow.getCell(header.cellCount - 1).value).toBe(100);
    // every group's total cell is a number in the same format, and they add up to the total to the cent
    const groups = rows.slice(rows.indexOf(header) + 1, rows.indexOf(totalRow));
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) expect(g.getCell(totalCol).numFmt).toBe(cell.numFmt);
    const sum = groups.reduce((a, g) => a + BigInt(Math.round((g.getCell(totalCol).value as number) * 1e6)), 0n);
    expect(Number((sum + 5_000n) / 10_000n)).toBe(Math.round((cell.value as number) * 100));
    expect(out.workbook.summary.report).toBe(name);
    expect(out.workbook.summary.figures[0]!.value).toBe(ui.rendered[name]!.workbook.summary.sheets[0]!.totals.total);
  });
});
