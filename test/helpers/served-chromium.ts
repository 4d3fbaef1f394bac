// `gpuledger serve` on a test's database and Chromium to read its pages, started and stopped together (the database's
// folder removed last): what every browser test of the web UI stands on.
import type { Browser } from 'playwright-core';
import type { Config } from '../../src/config/schema.ts';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { silentLogger } from '../../src/util/log.ts';
import { launchBrowser } from './browser.ts';
import { testConfig } from './report-fixtures.ts';
import type { TempDir } from './temp-dir.ts';

/** Whether a URL stays on this machine: all a page of `gpuledger serve` may ask for. */
export const loopback = (url: string) => new URL(url).hostname === '127.0.0.1';

export interface ServedChromium {
  serve: RunningServer;
  browser: Browser;
  /** The served database's folder. */
  tmp: TempDir;
  /** Closes the browser, then the server, then removes the folder. */
  stop: () => Promise<void>;
}

/**
 * The server on `tmp.db` at 127.0.0.1 (a free port, the test config in UTC unless `config` is given) and a Chromium;
 * a server or browser that fails to start undoes what had started, the folder included.
 */
export async function serveInChromium(tmp: TempDir, options: { warmPages?: boolean; config?: Config } = {}): Promise<ServedChromium> {
  const { config = testConfig({ timeZone: 'UTC' }), ...rest } = options;
  let serve: RunningServer;
  try {
    serve = await startServe({ dbPath: tmp.db, config, host: '127.0.0.1', port: 0, log: silentLogger, ...rest });
  } catch (e) {
    tmp.cleanup();
    throw e;
  }
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (e) {
    await serve.close();
    tmp.cleanup();
    throw e;
  }
  return {
    serve,
    browser,
    tmp,
    stop: async () => {
      await browser.close();
      await serve.close();
      tmp.cleanup();
    },
  };
}
