// Every screen looked at as a person would (issue 38 §2): each page `serve` has and the HTML report, at 1,400 px light,
// 1,400 px dark and on a 390 px phone, read from the laid-out page in Chromium – no text cut off or over other text,
// no money column off to the side without the cue, each table's headline amount in view, chart labels big enough
// and 4.5:1 against the chart in both schemes (test/helpers/layout-check.ts). The data is the demo's: a synced
// simulator account with the example config (allocation, budgets, alert thresholds) and the alerts it fires.
// Screenshots of every page × viewport go to out/screens/ so a reviewer can look.
import { mkdirSync } from 'node:fs';
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

const SCREENS = 'out/screens';

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
  ['sql', '/sql'],
  ['explore', '/explore'],
  ['explore-30-days', '/explore?preset=30d&granularity=day&by=family'],
  ['explore-two-levels', '/explore?preset=30d&granularity=week&by=family&by=template'],
  ['html-report', 'file'],
];

const VIEWPORTS = [
  { name: 'light', width: 1400, height: 900, colorScheme: 'light' },
  { name: 'dark', width: 1400, height: 900, colorScheme: 'dark' },
  { name: 'phone', width: 390, height: 844, colorScheme: 'light' },
] as const;

interface Screens {
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
    mkdirSync(SCREENS, { recursive: true });
    return {
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
    if (path !== 'file') expect(res?.status(), path).toBe(200);
    return page;
  }

  it('the fixture has what the screens show: alert events with their titles', async () => {
    const page = await open('/alerts', VIEWPORTS[0]);
    expect(await page.locator('#s-alerts tbody tr').count()).toBeGreaterThan(3);
    await page.context().close();
  });

  describe.each(VIEWPORTS)('at $name ($width px)', (vp) => {
    it.each(PAGES)('%s shows nothing cut off, covered or out of sight', async (name, path) => {
      const page = await open(path, vp);
      try {
        await page.screenshot({ path: join(SCREENS, `${name}-${vp.name}.png`), fullPage: true });
        expect(await layoutProblems(page)).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  });
});
