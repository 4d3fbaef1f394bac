// The page both browser test files of the HTML report open: the nightly report of a freshly synced simulated
// account, rendered as HTML only, with the file:// URL a browser loads it from.
import { pathToFileURL } from 'node:url';
import { renderReportFormats, type RenderedFormats } from '../../src/report/index.ts';
import type { Store } from '../../src/store/database.ts';
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
