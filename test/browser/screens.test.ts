// Every screen looked at as a person would (issue 38 §2): each page `serve` has and the HTML report, at 1,400 px light,
// 1,400 px dark and on a 390 px phone, read from the laid-out page in Chromium – no text cut off or over other text,
// no money column off to the side without the cue, each table's headline amount in view, chart labels big enough
// and 4.5:1 against the chart in both schemes (test/helpers/layout-check.ts). The data is the demo's: a synced
// simulator account with the example config (allocation, budgets, alert thresholds) and the alerts it fires.
// The README's pictures are taken every run (README_SCREENS, their first screenful, into docs/screenshots/ once a page
// passes), so they show the pages as this test saw them; full-page screenshots of every page × viewport go to
// $GPULEDGER_SCREENSHOTS/screens/ when that variable names a folder, so a reviewer can look (as html-report.test.ts and
// nothing-hidden.test.ts do): the 42 full-page PNGs cost ~7 CPU-s a run and no check reads them.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { demoBaseConfig } from '../../src/config/demo-database.ts';
import { renderReportFormats } from '../../src/report/index.ts';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { openStore } from '../../src/store/database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { chromiumAvailable, launchBrowser } from '../helpers/browser.ts';
import { layoutProblems } from '../helpers/layout-check.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';

// page.evaluate runs in the browser: its globals, untyped here
declare function getComputedStyle(element: any, pseudo?: string): any;

const SCREENS = process.env.GPULEDGER_SCREENSHOTS ? join(process.env.GPULEDGER_SCREENSHOTS, 'screens') : undefined;

/** Every page of serve (each kind once, and the explorer's shapes that lay out differently), and the report file. */
const PAGES: [name: string, path: string][] = [
  ['report-nightly', '/report/nightly'],
  ['report-finance', '/report/finance-monthly?period=2026-10'],
  ['drill', '/drill'],
  ['drill-pod', '/drill?family=pod'],
  ['allocation', '/allocation'],
  ['views', '/views'],
  ['view-runway', '/view/rpt_runway'],
  ['view-unit-cost', '/view/rpt_unit_cost'],
  ['alerts', '/alerts'],
  ['budgets', '/budgets'],
  ['guardrails', '/guardrails'],
  ['sql', '/sql'],
  ['explore', '/explore'],
  ['explore-30-days', '/explore?preset=30d&granularity=day&by=family'],
  ['explore-two-levels', '/explore?preset=30d&granularity=week&by=family&by=template'],
  ['html-report', 'file'],
];

/** The pages the README shows, each at every viewport: docs/screenshots/<name>-<viewport>.png. */
const README_SCREENS = new Set(['html-report', 'report-nightly', 'drill-pod', 'explore-30-days', 'explore-two-levels', 'budgets']);
const README_SHOTS = 'docs/screenshots';

const VIEWPORTS = [
  { name: 'light', width: 1400, height: 900, colorScheme: 'light' },
  { name: 'dark', width: 1400, height: 900, colorScheme: 'dark' },
  { name: 'phone', width: 390, height: 844, colorScheme: 'light' },
] as const;

interface Screens {
  /** The served database (a copy of the run's synced one, with the alerts it fires). */
  db: string;
  serve: RunningServer;
  browser: Browser;
  reportUrl: string;
  stop: () => Promise<void>;
}

describe.skipIf(!chromiumAvailable)('every screen at 1,400 px light and dark and on a phone', () => {
  const ui = suiteFixture<Screens>(async () => {
    const tmp = await syncedDatabase('gpuledger-screens-');
    // the demo's settings: the example config's allocation, budgets and alert thresholds, shown in UTC
    const config = { ...demoBaseConfig(testConfig(), undefined), timeZone: 'UTC' };
    let reportUrl: string;
    try {
      const store = await openStore({ path: tmp.db, command: 'test' });
      try {
        await runAlerts({ store, config, outDir: tmp.dir, stdout: new Writable({ write: (_chunk, _enc, done) => done() }), log: silentLogger });
        const out = await renderReportFormats({ store, config, report: 'nightly', outDir: tmp.dir, formats: ['html'] });
        reportUrl = pathToFileURL(out.html!.path).href;
      } finally {
        await store.close();
      }
    } catch (e) {
      tmp.cleanup();
      throw e;
    }
    const serve = await startServe({ dbPath: tmp.db, config, host: '127.0.0.1', port: 0, log: silentLogger, warmPages: false });
    const browser = await launchBrowser().catch(async (e) => {
      await serve.close();
      tmp.cleanup();
      throw e;
    });
    if (SCREENS) mkdirSync(SCREENS, { recursive: true });
    mkdirSync(README_SHOTS, { recursive: true });
    return {
      db: tmp.db,
      serve,
      browser,
      reportUrl,
      stop: async () => {
        await browser.close();
        await serve.close();
        tmp.cleanup();
      },
    };
  }, 180_000);

  async function open(path: string, vp: (typeof VIEWPORTS)[number]): Promise<Page> {
    const context = await ui.browser.newContext({ colorScheme: vp.colorScheme, viewport: { width: vp.width, height: vp.height } });
    const page = await context.newPage();
    const res = await page.goto(path === 'file' ? ui.reportUrl : ui.serve.url + path);
    if (path !== 'file') expect(res?.status(), `${path}: ${await res?.text()}`).toBe(200);
    return page;
  }

  it('the README shows the pictures this test takes, every one of them at each viewport', () => {
    const shown = [...readFileSync('README.md', 'utf8').matchAll(/\]\((docs\/screenshots\/[^)]+\.png)\)/g)].map((m) => m[1]!);
    // a saved view's page is taken by test/browser/saved-views.test.ts, which serves the views it checks; a team's
    // showback page and the summary by test/integration/showback.test.ts, which writes them
    const takenElsewhere = ['saved-view', 'showback-team', 'showback-summary'];
    const taken = [...README_SCREENS, ...takenElsewhere].flatMap((name) => VIEWPORTS.map((vp) => `${README_SHOTS}/${name}-${vp.name}.png`));
    expect([...new Set(shown)].sort()).toEqual(taken.sort());
  });

  it('the fixture has what the screens show: alert events with their titles', async () => {
    const page = await open('/alerts', VIEWPORTS[0]);
    expect(await page.locator('#s-alerts tbody tr').count()).toBeGreaterThan(3);
    await page.context().close();
  });

  describe.each(VIEWPORTS)('at $name ($width px)', (vp) => {
    it.each(PAGES)('%s shows nothing cut off, covered or out of sight', async (name, path) => {
      const page = await open(path, vp);
      try {
        if (SCREENS) await page.screenshot({ path: join(SCREENS, `${name}-${vp.name}.png`), fullPage: true });
        // what the screenshot waited for before the page was read: its fonts laid out
        else await page.evaluate('document.fonts.ready.then(() => true)');
        expect(await layoutProblems(page)).toEqual([]);
        // only a screen the check passed becomes the README's picture: its first screenful (the whole page of a
        // report is ~1.6 MB a picture; out/screens/ keeps the whole page)
        if (README_SCREENS.has(name)) await page.screenshot({ path: join(README_SHOTS, `${name}-${vp.name}.png`) });
      } finally {
        await page.context().close();
      }
    });
  });

  // issue 39 §1: each budget's period as a cumulative line against its amount, at every viewport
  describe.each(VIEWPORTS)('/budgets at $name', (vp) => {
    it('draws every budget of the example config: actual, forecast with its band, the amount and the thresholds, with a link to the explorer', async () => {
      const page = await open('/budgets', vp);
      try {
        const figures = page.locator('figure.chart');
        expect(await figures.count()).toBe(3);
        for (const name of ['account', 'imaging-team', 'sdxl']) {
          const s = page.locator(`#s-budget-${name}`);
          const svg = s.locator('figure.chart svg');
          await svg.scrollIntoViewIfNeeded();
          expect(await svg.isVisible(), name).toBe(true);
          const box = (await svg.boundingBox())!;
          expect(box.width, name).toBeGreaterThan(300);
          expect(await svg.locator('path.c-forecast').count(), name).toBe(1);
          expect(await svg.locator('line.c-budget[x1="64"]').count(), name).toBe(1);
          expect(await svg.locator('path[fill="#e69f00"]').count(), name).toBe(1); // the forecast band
          expect(await svg.locator('text', { hasText: /^budget \$/ }).count(), name).toBe(1);
          // the thresholds below 100 %: 50 and 80 %, or 80 % (imaging-team)
          expect(await svg.locator('line.c-threshold[x1="64"]').count(), name).toBe(name === 'imaging-team' ? 1 : 2);
          const href = await s.locator('a', { hasText: 'in the explorer' }).getAttribute('href');
          expect(href, name).toMatch(/^\/explore\?/);
          const explore = await page.context().newPage();
          expect((await explore.goto(ui.serve.url + href))?.status(), href!).toBe(200);
          await explore.close();
        }
        expect(await layoutProblems(page)).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  });

  // the defects issue 38 names, each read where a person reads it (each failed before its fix)
  describe('what the issue saw hidden or garbled', () => {
    const phone = VIEWPORTS[2];
    /** The visible text of a table's columns: heading → the first row's cell, for the columns shown. */
    async function shownColumns(page: Page, field: string): Promise<Record<string, string>> {
      return page.locator(`table.data:has(th[data-field="${field}"])`).first().evaluate((table: any) => {
        const heads = [...table.tHead.rows[0].cells] as any[];
        const row = table.tBodies[0].rows[0];
        return Object.fromEntries(heads.flatMap((th, i) => (th.getClientRects().length > 0 ? [[th.dataset.field, row.cells[i].innerText.trim()]] : [])));
      });
    }

    it('/alerts on a phone shows each event with its title, severity and rule, not "Event: fired" alone', async () => {
      const page = await open('/alerts', phone);
      // each shown field as it reads: its label (drawn before it) and its value, inside the screen
      const cards = await page.locator('#s-alerts tbody tr').evaluateAll((rows: any[]) =>
        rows.map((r) =>
          [...r.cells]
            .filter((td: any) => td.getClientRects().length > 0 && td.getBoundingClientRect().right <= 391 && getComputedStyle(td, '::before').content !== 'none')
            .map((td: any) => `${td.dataset.label}: ${td.innerText.trim()}`)
            .join('\n'),
        ),
      );
      expect(cards.length).toBeGreaterThan(3);
      for (const card of cards) {
        expect(card).toMatch(/Title: \S/);
        expect(card).toMatch(/Severity: (info|warning|critical)/);
        expect(card).toMatch(/Rule: \S/);
        expect(card).toMatch(/Event: (fired|escalated|resolved)/);
      }
      await page.context().close();
    });

    it('the runway table on a phone shows the runway beside the balance', async () => {
      const page = await open('/report/nightly', phone);
      const shown = await shownColumns(page, 'balance');
      expect(Object.keys(shown)).toContain('balance');
      expect(Object.keys(shown)).toContain('runway_hours');
      await page.context().close();
    });

    it('"Data complete through" on a phone shows each source with its date', async () => {
      const page = await open('/report/nightly', phone);
      const shown = await shownColumns(page, 'source');
      expect(shown.complete_through, JSON.stringify(shown)).toMatch(/^\d{4}-\d\d-\d\d/);
      await page.context().close();
    });

    it('the explorer at 1,400 px keeps Total, Share and Change in view over 30 days, the periods scrolling under them', async () => {
      const page = await open('/explore?preset=30d&granularity=day&by=family', VIEWPORTS[0]);
      const box = await page.locator('#s-explore .scroll').boundingBox();
      for (const name of ['Total', 'Share', 'Change']) {
        // Change may say under it which days it compares (a day still loading)
        const th = await page.locator('#explore-table thead th', { hasText: new RegExp(`^${name}($|to )`) }).boundingBox();
        expect(th!.x, name).toBeGreaterThanOrEqual(box!.x);
        expect(th!.x + th!.width, name).toBeLessThanOrEqual(Math.min(box!.x + box!.width, 1400) + 1);
      }
      expect(await page.locator('#s-explore p.cue').textContent()).toMatch(/more columns? to the right/);
      await page.context().close();
    });

    it('Unit costs on a period with no ended day yet shows the day before, not "No quantities yet"', async () => {
      // a one-day period is the 1st of a month, month to date: its only day has not ended when the report runs
      const page = await open('/report/nightly?period=2026-11-20..2026-11-20&section=unit-costs', VIEWPORTS[0]);
      const section = page.locator('#s-unit-costs');
      expect(await section.innerText()).not.toContain('No quantities yet');
      const days = await section.locator('tbody td[data-v]:nth-child(4)').allTextContents();
      expect(days.length).toBeGreaterThan(0);
      expect(new Set(days)).toEqual(new Set(['2026-11-19']));
      await page.context().close();
    });
  
    it.each([
      ['the report file', 'file'],
      ["serve's report page", '/report/nightly'],
    ])('the Unit costs chart in %s names its metric and scope in its title and legend', async (_where, path) => {
      const page = await open(path, VIEWPORTS[0]);
      const figure = page.locator('#s-unit-costs figure.chart');
      expect(await figure.count()).toBe(1);
      const subject = 'Cost per GPU-hour, whole account (account sim)';
      expect(await figure.getAttribute('aria-label')).toBe(`${subject}, trailing 7 days`);
      const drawn = await figure.locator('svg text').allTextContents();
      expect(drawn[0]).toBe(`${subject}, trailing 7 days`);
      expect(drawn).toContain(subject);
      expect(drawn).not.toContain('Actual');
      await page.context().close();
    });

    it('/alerts at 1,400 px shows several events at a time in its history box, not one and a bit', async () => {
      const page = await open('/alerts', VIEWPORTS[0]);
      const box = (await page.locator('#s-alerts .scroll').boundingBox())!;
      const heights = await page.locator('#s-alerts tbody tr').evaluateAll((rows: any[]) => rows.map((r) => r.getBoundingClientRect().height as number));
      let shown = 0;
      for (let room = box.height - 40; shown < heights.length && room >= heights[shown]!; shown++) room -= heights[shown]!;
      expect(shown).toBeGreaterThanOrEqual(Math.min(3, heights.length));
      await page.context().close();
    });
  });

  // the explorer's anomaly marks: on the period that holds the day at any granularity, and only for incidents the
  // filtered view holds (issue 38: at week granularity the note showed and no ▲ was drawn; family:pod kept a
  // Serverless incident's ▲)
  describe('the explorer marks the anomalies of the view it shows', () => {
    async function marks(path: string) {
      const page = await open(path, VIEWPORTS[0]);
      const drawn = await page.locator('#s-explore svg path.anomaly').count();
      const note = await page.locator('#s-explore p.note', { hasText: '▲ marks' }).count();
      await page.context().close();
      return { drawn, note };
    }
    /** The families that drove the anomaly incidents the fixture's alerts fired. */
    async function drivingFamilies(): Promise<Set<string>> {
      const store = await openStore({ path: ui.db, readOnly: true, command: 'test' });
      try {
        const rows = await store.all<{ details: string }>(`select details::varchar as details from _meta_alert_events where rule = 'anomaly' and event in ('fired', 'escalated')`);
        return new Set(rows.flatMap((r) => (JSON.parse(r.details) as { drivers: { family: string }[] }).drivers.map((d) => d.family)));
      } finally {
        await store.close();
      }
    }

    it.each(['day', 'week'])('draws a ▲ whenever the note says one is drawn, per %s', async (granularity) => {
      const m = await marks(`/explore?preset=30d&granularity=${granularity}&by=family`);
      expect(m.note, 'the fixture fired an anomaly in the last 30 days').toBe(1);
      expect(m.drawn).toBeGreaterThan(0);
    });

    it('filtered to a family, marks only incidents that family drove', async () => {
      const driving = await drivingFamilies();
      expect(driving.size).toBeGreaterThan(0);
      for (const family of ['pod', 'serverless', 'storage', 'cluster', 'public_endpoint']) {
        const m = await marks(`/explore?preset=30d&granularity=day&by=family&filter=family:${family}`);
        if (driving.has(family)) expect(m.drawn, family).toBeGreaterThan(0);
        else expect(m, family).toEqual({ drawn: 0, note: 0 });
      }
    });

    it('shows the range it answers in its form: month to date by default, and a preset\'s days in From and To', async () => {
      for (const [path, preset] of [['/explore', 'mtd'], ['/explore?preset=7d', '7d']] as const) {
        const page = await open(path, VIEWPORTS[0]);
        const [from, to] = (await page.locator('header.page p.sub').first().textContent())!.match(/\d{4}-\d\d-\d\d/g)!;
        expect(await page.locator('select[name="preset"]').inputValue(), path).toBe(preset);
        expect(await page.locator('input[name="from"]').inputValue(), path).toBe(from);
        expect(await page.locator('input[name="to"]').inputValue(), path).toBe(to);
        // a day typed is a custom range: the preset would otherwise win over it
        await page.locator('input[name="from"]').fill('2026-11-01');
        expect(await page.locator('select[name="preset"]').inputValue()).toBe('');
        await page.context().close();
      }
    });

    it('names two-level groups in the legend whole, not cut with "…"', async () => {
      const page = await open('/explore?preset=30d&granularity=week&by=family&by=template', VIEWPORTS[0]);
      const legend = await page.locator('#s-explore svg text').allTextContents();
      expect(legend.filter((t) => t.includes(' · ')).length).toBeGreaterThan(0);
      expect(legend.filter((t) => t.endsWith('…'))).toEqual([]);
      await page.context().close();
    });
  });
});
