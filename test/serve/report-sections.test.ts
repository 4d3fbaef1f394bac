// A report at a period not computed ahead is served a section per page (issue 28 part 2): the period's page shows the
// heading, the first section and a link to each other one; each link's page computes that section alone, with the
// same figures the whole report shows; a section the report does not have is a 404 naming the ones it has. The
// default period's page (computed ahead on publish) keeps every section.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReportDefinition, reportPage, withReportSession } from '../../src/report/index.ts';
import { sectionId } from '../../src/present/index.ts';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { silentLogger } from '../../src/util/log.ts';
import { readHtmlTables } from '../helpers/html-read.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { syncedDatabase, syncedStore } from '../helpers/synced-fixture.ts';
import type { TempDir } from '../helpers/temp-dir.ts';

const config = testConfig({ timeZone: 'UTC' });
const def = loadReportDefinition('nightly', undefined);
const slug = (name: string) => sectionId(name).slice(2);
const sectionOf = (page: string, name: string) => new RegExp(`<section id="${sectionId(name)}"[^>]*>([\\s\\S]*?)</section>`).exec(page)?.[1];
// every exact value a section shows (figures, table cells, totals), in order
const valuesOf = (markup: string | undefined) => [...(markup ?? '').matchAll(/data-v="([^"]*)"/g)].map((m) => m[1]);

describe('a report served a section per page', () => {
  let tmp: TempDir;
  let serve: RunningServer;
  /** The whole report for the same period, rendered from a copy of the same file. */
  let whole: string;

  beforeAll(async () => {
    tmp = await syncedDatabase('gpuledger-serve-sections-');
    serve = await startServe({ dbPath: tmp.db, config, host: '127.0.0.1', port: 0, log: silentLogger, warmPages: false });
    const copy = await syncedStore('gpuledger-serve-sections-whole-');
    try {
      whole = (await withReportSession({ store: copy.store, config, report: 'nightly', period: '2026-10', writes: false }, (s) => reportPage(s, {}))).html;
    } finally {
      await copy.store.close();
      copy.cleanup();
    }
  }, 120_000);
  afterAll(async () => {
    await serve?.close();
    tmp?.cleanup();
  });

  const get = async (path: string) => {
    const res = await fetch(serve.url + path);
    return { status: res.status, body: await res.text() };
  };

  it('shows the first section at a period and links every other one, computing none of their tables', async () => {
    expect(def.sheets.length).toBeGreaterThan(5);
    const page = await get('/report/nightly?period=2026-10');
    expect(page.status).toBe(200);
    expect(valuesOf(sectionOf(page.body, 'Summary'))).toEqual(valuesOf(sectionOf(whole, 'Summary')));
    expect(valuesOf(sectionOf(page.body, 'Summary')).length).toBeGreaterThan(0);
    for (const sheet of def.sheets.slice(1)) {
      const section = sectionOf(page.body, sheet.name);
      expect(section, sheet.name).toContain(`<a href="/report/nightly?period=2026-10&amp;section=${slug(sheet.name)}">`);
      expect(valuesOf(section), sheet.name).toEqual([]);
    }
    expect([...readHtmlTables(page.body).keys()]).toEqual([]);
    expect([...readHtmlTables(whole).keys()].length).toBe(def.sheets.filter((s) => s.kind === 'table').length);
  });

  it('computes a section alone on its page, with the figures of the whole report, and leads back to it', async () => {
    const tables = readHtmlTables(whole);
    for (const sheet of def.sheets.slice(1)) {
      const page = await get(`/report/nightly?period=2026-10&section=${slug(sheet.name)}`);
      expect([sheet.name, page.status]).toEqual([sheet.name, 200]);
      const shown = [...page.body.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]);
      expect(shown).toEqual([sectionId(sheet.name)]);
      expect(valuesOf(sectionOf(page.body, sheet.name)), sheet.name).toEqual(valuesOf(sectionOf(whole, sheet.name)));
      if (sheet.kind === 'table') expect(readHtmlTables(page.body).get(sectionId(sheet.name)), sheet.name).toEqual(tables.get(sectionId(sheet.name)));
      expect(page.body).toContain('<nav aria-label="Report sections"><p><a href="/report/nightly?period=2026-10">');
    }
    // a column linking to another section goes to that section's page: it is not on this one
    const byEndpoint = (await get('/report/nightly?period=2026-10&section=by-endpoint')).body;
    expect(byEndpoint).toContain('<a href="/report/nightly?period=2026-10&amp;section=top-resources">');
    expect(byEndpoint).not.toContain('href="#s-top-resources"');
    expect(whole).toContain('href="#s-top-resources"');
    // the figures are there to compare: the Detail of the month has rows
    expect(tables.get(sectionId('Detail'))!.rows.length).toBeGreaterThan(0);
  }, 120_000);

  it('answers a section the report does not have with 404 and the sections it has', async () => {
    const page = await get('/report/nightly?period=2026-10&section=nope');
    expect(page.status).toBe(404);
    expect(page.body).toBe(`report nightly has no section 'nope'; its sections: ${def.sheets.map((s) => slug(s.name)).join(', ')}\n`);
  });

  it('keeps every section on the default period\'s page, computed ahead', async () => {
    const page = await get('/report/nightly');
    expect(page.status).toBe(200);
    expect([...readHtmlTables(page.body).keys()]).toEqual(def.sheets.filter((s) => s.kind === 'table').map((s) => sectionId(s.name)));
    expect(page.body).not.toContain('section=');
  });

  it("draws a past period's balance up to the period's end, not up to today", async () => {
    const page = (await get('/report/nightly?period=2026-10')).body;
    const at = page.indexOf('Prepaid balance at each day');
    expect(at).toBeGreaterThan(0);
    const chart = page.slice(at, page.indexOf('</svg>', at));
    // the x axis labels days as "Oct 31"; the synced file holds balances into November, which October must not draw
    const days = [...chart.matchAll(/>((?:Sep|Oct|Nov|Dec) \d{1,2})</g)].map((m) => m[1]);
    expect(days.length).toBeGreaterThan(0);
    expect(days.at(-1)).toBe('Oct 31');
    expect(days.filter((d) => !d!.startsWith('Sep') && !d!.startsWith('Oct'))).toEqual([]);
  });
});
