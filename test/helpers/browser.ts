// Debian's Chromium driven by playwright-core (which downloads no browser). With CI set a missing Chromium fails the
// test file – .ci/run installs the `chromium` package – elsewhere the browser tests are skipped, visibly.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.GPULEDGER_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable) {
  if (process.env.CI) throw new Error(`Chromium is not at ${CHROMIUM}; .ci/run installs Debian's chromium package`);
  console.warn(`SKIPPED: Chromium is not at ${CHROMIUM} – the browser tests need Debian's chromium package`);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Every URL the page asked for. */
  requests: string[];
}

/** A page that records its console errors and its requests; `allow` decides which requests may proceed (the rest abort). */
export async function watchedPage(browser: Browser, options: { colorScheme?: 'light' | 'dark'; allow: (url: string) => boolean; downloads?: boolean }): Promise<WatchedPage> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? 'light', viewport: { width: 1280, height: 900 }, acceptDownloads: options.downloads ?? true });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await context.route('**/*', (r) => {
    requests.push(r.request().url());
    return options.allow(r.request().url()) ? r.continue() : r.abort('internetdisconnected');
  });
  return { page, errors, requests };
}
