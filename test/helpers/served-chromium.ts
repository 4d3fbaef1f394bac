// `gpuledger serve` on a database file and Chromium to read its pages, started and stopped together: what every
// browser test of the web UI stands on.
import type { Browser } from 'playwright-core';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { silentLogger } from '../../src/util/log.ts';
import { launchBrowser } from './browser.ts';
import { testConfig } from './report-fixtures.ts';

/** Whether a URL stays on this machine: all a page of `gpuledger serve` may ask for. */
export const loopback = (url: string) => new URL(url).hostname === '127.0.0.1';

export interface ServedChromium {
  serve: RunningServer;
  browser: Browser;
  /** Closes the browser, then the server. */
  stop: () => Promise<void>;
}

/** The server on 127.0.0.1 (a free port, the test config in UTC) and a Chromium; a browser that fails to start stops the server. */
export async function serveInChromium(dbPath: string, options: { warmPages?: boolean } = {}): Promise<ServedChromium> {
  const serve = await startServe({ dbPath, config: testConfig({ timeZone: 'UTC' }), host: '127.0.0.1', port: 0, log: silentLogger, ...options });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (e) {
    await serve.close();
    throw e;
  }
  return {
    serve,
    browser,
    stop: async () => {
      await browser.close();
      await serve.close();
    },
  };
}
