// The page both browser test files of the HTML report open: the nightly report of a freshly synced simulated
// account, rendered as HTML only, with the file:// URL a browser loads it from – and a Chromium to load it in.
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { renderReportFormats, type RenderedFormats } from '../../src/report/index.ts';
import type { Store } from '../../src/store/database.ts';
import { launchBrowser } from './browser.ts';
import { syncedStore } from './synced-fixture.ts';
import { testConfig } from './report-fixtures.ts';

export interface NightlyPage {
  dir: string;
  store: Store;
  out: RenderedFormats;
  url: string;
}

export async function nightlyPage(prefix: string): Promise<NightlyPage> {
  const { dir, store } = await syncedStore(prefix);
  const out = await renderReportFormats({ store, config: testConfig({ timeZone: 'UTC' }), report: 'nightly', outDir: dir, formats: ['html'] });
  return { dir, store, out, url: pathToFileURL(out.html!.path).href };
}

export interface NightlyPageInChromium extends NightlyPage {
  browser: Browser;
  /** Closes the browser, then the store. */
  stop: () => Promise<void>;
}

/** The page and a Chromium to open it; a browser that fails to start closes the store. */
export async function nightlyPageInChromium(prefix: string): Promise<NightlyPageInChromium> {
  const page = await nightlyPage(prefix);
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (e) {
    await page.store.close();
    throw e;
  }
  return {
    ...page,
    browser,
    stop: async () => {
      await browser.close();
      await page.store.close();
    },
  };
}
