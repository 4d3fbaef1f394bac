// `gpuledger serve` in a real browser (issue 20 §2): every page loads with no console error and asks only 127.0.0.1;
// a drill-down from a family total to one resource's daily cost and back, its figures adding up; a CSV download
// equal to `gpuledger query` of the same view; the SQL page, refusing a write exactly as `query` does; a newly
// published database picked up without a restart; GET only; a token for anything but loopback.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../src/serve/index.ts';
import { writeSessions } from '../../src/store/shared-database.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { silentLogger } from '../../src/util/log.ts';
import { chromiumAvailable, watchedPage } from '../helpers/browser.ts';
import { loopback, serveInChromium } from '../helpers/served-chromium.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';
import { gpuledger } from '../helpers/cli.ts';
import { testConfig } from '../helpers/report-fixtures.ts';

describe.skipIf(!chromiumAvailable)('gpuledger serve in Chromium', () => {
  const ui = suiteFixture(async () => serveInChromium(await syncedDatabase('gpuledger-serve-')));

  it.each(['/report/nightly', '/report/nightly?period=2026-10', '/report/nightly?period=2026-10&section=by-endpoint', '/drill', '/drill?family=pod', '/allocation', '/views', '/view/rpt_runway', '/view/rpt_unit_cost', '/alerts', '/sql'])(
    'loads %s with no console error and no request beyond 127.0.0.1',
    async (path) => {
      const w = await watchedPage(ui.browser, { allow: loopback });
      const res = await w.page.goto(ui.serve.url + path);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toMatch(/^default-src 'none'; img-src data:; style-src 'sha256-/);
      expect(w.errors).toEqual([]);
      expect(w.requests.filter((u) => !loopback(u))).toEqual([]);
      await w.page.context().close();
    },
  );

  it('drills from a family total to a resource\'s daily cost, the figures adding up, and back', async () => {
    const w = await watchedPage(ui.browser, { allow: loopback });
    const page = w.page;
    const amountOf = async (row: ReturnType<typeof page.locator>) => decimalStringToMicros((await row.locator('td').last().getAttribute('data-v'))!);
    await page.goto(`${ui.serve.url}/drill`);
    const family = page.locator('#s-families tbody tr', { hasText: 'Pods' }).first();
    const familyTotal = await amountOf(family);
    await family.locator('a').click();
    await page.waitForURL(/family=pod$/);
    const templates = page.locator('#s-template tbody tr');
    let sum = 0n;
    for (let i = 0; i < (await templates.count()); i++) sum += await amountOf(templates.nth(i));
    expect(sum).toBe(familyTotal);
    const template = templates.first();
    const templateTotal = await amountOf(template);
    await template.locator('a').click();
    await page.waitForURL(/by=template/);
    const resource = page.locator('#s-resources tbody tr').first();
    const resourceTotal = await amountOf(resource);
    expect(resourceTotal).toBeLessThanOrEqual(templateTotal);
    await resource.locator('a').click();
    await page.waitForURL(/resource=/);
    const days = page.locator('#s-resource tbody tr');
    let daily = 0n;
    for (let i = 0; i < (await days.count()); i++) daily += await amountOf(days.nth(i));
    expect(daily).toBe(resourceTotal);
    await page.goBack();
    await page.waitForURL(/by=template/);
    expect(await page.locator('#s-resources').count()).toBe(1);
    await page.locator('nav[aria-label="Drill-down path"] a', { hasText: 'All families' }).click();
    await page.waitForURL(/\/drill(\?)?$/);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('follows an allocation value to the resources and rules behind it', async () => {
    const allocation = { categories: { team: { rules: [{ value: 'compute', match: { family: ['pod', 'serverless'] } }], default: 'other', split: [] } } };
    // warmPages off: this test opens its few pages itself; computing the nine default pages ahead (~2 CPU-s) is work nobody reads
    const withRules = await startServe({ dbPath: ui.tmp.db, config: testConfig({ timeZone: 'UTC', allocation }), host: '127.0.0.1', port: 0, log: silentLogger, warmPages: false });
    const w = await watchedPage(ui.browser, { allow: loopback });
    try {
      await w.page.goto(`${withRules.url}/allocation`);
      const link = w.page.locator('#s-categories tbody a', { hasText: 'compute' }).first();
      await link.click();
      await w.page.waitForURL(/category=team&value=compute/);
      const rows = w.page.locator('#s-resources tbody tr');
      expect(await rows.count()).toBeGreaterThan(0);
      const families = await rows.locator('td:nth-child(2)').allTextContents();
      expect(new Set(families)).toEqual(new Set(families.filter((f) => f === 'pod' || f === 'serverless')));
      for (const rule of await rows.locator('td:nth-child(5)').allTextContents()) expect(rule).toBe('1');
      expect(w.errors).toEqual([]);
    } finally {
      await w.page.context().close();
      await withRules.close();
    }
  });

  it('downloads a view as CSV equal to gpuledger query of it', async () => {
    const w = await watchedPage(ui.browser, { allow: loopback });
    await w.page.goto(`${ui.serve.url}/view/rpt_by_template`);
    const [download] = await Promise.all([w.page.waitForEvent('download'), w.page.locator('a[download]').click()]);
    const fromPage = readFileSync((await download.path())!, 'utf8');
    const cli = await gpuledger(['--db', ui.tmp.db, 'query', 'select * from rpt_by_template order by all', '--format', 'csv', '--csv-safe']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(fromPage).toBe(cli.stdout);
    expect(fromPage.split('\r\n').length).toBeGreaterThan(2);
    await w.page.context().close();
  });

  it('runs SQL through query\'s sandbox, and refuses a write exactly as query does', async () => {
    const w = await watchedPage(ui.browser, { allow: loopback });
    await w.page.goto(`${ui.serve.url}/sql`);
    await w.page.locator('textarea').fill('select 40 + 2 as answer');
    await w.page.locator('button[type=submit]').click();
    await w.page.waitForURL(/q=/);
    expect(await w.page.locator('#s-result tbody td').first().getAttribute('data-v')).toBe('42');
    const write = `copy (select 1) to '${ui.tmp.dir}/out.csv'`;
    await w.page.locator('textarea').fill(write);
    const [res] = await Promise.all([w.page.waitForResponse(/\/sql\?/), w.page.locator('button[type=submit]').click()]);
    expect(res.status()).toBe(400);
    const shown = (await w.page.locator('p.error').textContent())!;
    const cli = await gpuledger(['--db', ui.tmp.db, 'query', write]);
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim()).toBe(`gpuledger: ${shown}`);
    expect(w.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await w.page.context().close();
  });

  it('picks up a newly published database without a restart, holding no lock a writer needs', async () => {
    const page = async () => (await fetch(`${ui.serve.url}/views`)).text();
    expect(await page()).toContain('SIMULATED DATA – not a real account: sim');
    await writeSessions({ dbPath: ui.tmp.db, command: 'test' }).write((store) => store.run('update _meta_accounts set simulated = false'));
    expect(await page()).not.toContain('<p class="banner"');
    await writeSessions({ dbPath: ui.tmp.db, command: 'test' }).write((store) => store.run('update _meta_accounts set simulated = true'));
    expect(await page()).toContain('SIMULATED DATA – not a real account: sim');
  });

  it('answers GET and HEAD only, and anything but loopback only with a token', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const r = await fetch(`${ui.serve.url}/sql?q=select+1`, { method });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD');
    }
    expect((await fetch(`${ui.serve.url}/nope`)).status).toBe(404);
    expect((await fetch(`${ui.serve.url}/report/nightly?period=2026-13`)).status).toBe(400);
    await expect(startServe({ dbPath: ui.tmp.db, config: testConfig(), host: '0.0.0.0', port: 0, log: silentLogger })).rejects.toThrow(/needs a token: set GPULEDGER_SERVE_TOKEN/);
    const open = await startServe({ dbPath: ui.tmp.db, config: testConfig(), host: '0.0.0.0', port: 0, token: 'secret-token-long-enough-to-be-accepted', log: silentLogger, warmPages: false });
    try {
      const base = open.url.replace('0.0.0.0', '127.0.0.1');
      expect((await fetch(`${base}/views`)).status).toBe(401);
      expect((await fetch(`${base}/views`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`${base}/views`, { headers: { Authorization: 'Bearer secret-token-long-enough-to-be-accepted' } })).status).toBe(200);
      const once = await fetch(`${base}/views?token=secret-token-long-enough-to-be-accepted`, { redirect: 'manual' });
      expect(once.status).toBe(303);
      expect(once.headers.get('location')).toBe('/views');
      const cookie = once.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${base}/views`, { headers: { cookie } })).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
