// The explorer's restatements view (changed_since) in Chromium: it renders the verdict and the restated cells,
// keeps the moment in its form, links back to the view now – and resource ids written as markup stay text.
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, watchedPage } from '../helpers/browser.ts';
import { loopback, serveInChromium } from '../helpers/served-chromium.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { restatedDatabase, type RestatedDatabase } from '../helpers/restated-database.ts';

declare const window: any;

const RESTATED = `<img src=x onerror="window.__pwned=1">"'&`;
const ADDED = `<script>window.__pwned=2</script>`;

describe.skipIf(!chromiumAvailable)('the explorer\'s restatements view in Chromium', () => {
  let db: RestatedDatabase;
  const ui = suiteFixture(async () => {
    db = await restatedDatabase('gpuledger-explore-changes-browser-', { restated: RESTATED, gone: 'pod-gone', added: ADDED });
    // warmPages off: this test opens its few pages itself; computing the nine default pages ahead (~2 CPU-s) is work nobody reads
    return serveInChromium(db.tmp, { warmPages: false });
  });

  it('renders the restated cells with hostile ids as text, and links back to the view now', async () => {
    const w = await watchedPage(ui.browser, { allow: loopback });
    const page = w.page;
    await page.goto(`${ui.serve.url}/explore?from=${db.day}&to=${db.day}&by=resource&changed_since=${encodeURIComponent(db.knownAt)}`);
    expect(await page.locator('#changes-verdict').innerText()).toBe(`3 figures restated since ${db.knownAt}: the view's total moved by +$525.00, from $15.00 to $540.00.`);
    const rows = await page.locator('#changes-table tbody tr').evaluateAll((trs: any[]) => trs.map((tr) => [...tr.cells].map((c: any) => c.innerText.trim())));
    expect(rows).toEqual(
      [
        [db.day, RESTATED, '$10.00', '$500.00', '+$490.00'],
        [db.day, ADDED, '–', '$40.00', '+$40.00'],
        [db.day, 'pod-gone', '$5.00', '–', '-$5.00'],
      ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
    );
    expect(await page.locator('#changes-table img, #changes-table script').count()).toBe(0);
    expect(await page.locator('input[name="changed_since"]').inputValue()).toBe(db.knownAt);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    await page.getByRole('link', { name: 'The view now' }).click();
    await page.waitForURL((u) => !u.searchParams.has('changed_since'));
    expect(await page.locator('#explore-table tfoot').innerText()).toContain('$540.00');
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(w.errors).toEqual([]);
    expect(w.requests.filter((u) => !loopback(u))).toEqual([]);
    await page.context().close();
  });
});
