// The HTML report against the workbook (issue 20 §1): the shipped definitions rendered both ways in one session on
// raw billing rows of two accounts; every table cell of every section equals its workbook cell, totals included; the
// page fetches nothing, escapes what it shows and stays within its size budget. In a real browser: test/browser/.
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportFormats, type RenderedFormats } from '../../src/report/index.ts';
import { wallClock, parseTimestamp } from '../../src/report/cells/values.ts';
import { tableHtml } from '../../src/report/html/sections.ts';
import { withReportSession } from '../../src/report/report-session.ts';
import { writeHtmlReport } from '../../src/report/html/render-html.ts';
import type { Store } from '../../src/store/database.ts';
import { twoAccountStore } from '../helpers/raw-billing.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { readHtmlTables } from '../helpers/html-read.ts';
import { readWorkbook } from '../helpers/workbook-read.ts';

const TZ = 'Europe/Berlin';

/** The workbook cell and the page's exact value are the same figure. */
function expectSame(x: ExcelJS.CellValue, v: string, where: string) {
  if (x === null || x === undefined || x === '') return expect(v, where).toBe('');
  if (typeof x === 'object' && 'formula' in x) return expectSame((x as { result: ExcelJS.CellValue }).result ?? 0, v === '' ? '0' : v, where);
  if (typeof x === 'number') {
    const n = Number(v);
    return expect(Math.abs(n - x), `${where}: ${v} vs ${x}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(x)));
  }
  if (x instanceof Date) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return expect(x.toISOString().slice(0, 10), where).toBe(v);
    // an instant (with an offset) on the configured clock; a naive timestamp is a wall-clock time already
    const t = parseTimestamp(v)!;
    return expect(x.getTime(), `${where}: ${v}`).toBe(/[+-]\d{2}(:?\d{2})?$/.test(v) ? wallClock(t, TZ).getTime() : t.getTime());
  }
  // the workbook shows a boolean as Yes/No; the exact value is true/false
  if (x === 'Yes' || x === 'No') return expect(x === 'Yes' ? 'true' : 'false', where).toBe(v);
  return expect(String(x), where).toBe(v);
}

describe('the HTML report beside the workbook', () => {
  let dir: string;
  let store: Store;
  const out: Record<string, RenderedFormats> = {};
  const config = testConfig({ reports: { budget: { monthly: '250000' } }, timeZone: TZ });

  beforeAll(async () => {
    ({ dir, store } = await twoAccountStore());
    for (const report of ['nightly', 'finance-monthly']) out[report] = await renderReportFormats({ store, config, report, outDir: dir, formats: ['xlsx', 'html'] });
  });
  afterAll(async () => {
    await store?.close();
  });

  it.each(['nightly', 'finance-monthly'])('%s: every table cell and total of the page equals the workbook', async (report) => {
    const { workbook, html } = out[report]!;
    expect(html!.path).toBe(join(dir, workbook!.path.split('/').pop()!.replace(/\.xlsx$/, '.html')));
    const wb = await readWorkbook(workbook!.path);
    const tables = readHtmlTables(readFileSync(html!.path, 'utf8'));
    let compared = 0;
    const tableSheets = wb.worksheets.filter((ws) => tables.has(`s-${ws.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`));
    expect(tableSheets.length).toBeGreaterThanOrEqual(8);
    for (const ws of tableSheets) {
      const t = tables.get(`s-${ws.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`)!;
      let header = 0;
      for (let r = 1; r <= 20 && !header; r++) if (ws.getRow(r).getCell(1).value === t.headers[0]) header = r;
      expect(header, ws.name).toBeGreaterThan(0);
      expect(t.headers).toEqual(t.headers.map((_, j) => ws.getRow(header).getCell(j + 1).value));
      const rows = html!.sections.find((s) => s.name === ws.name)!;
      expect(t.rows.length, ws.name).toBe(rows.shown);
      t.rows.forEach((row, i) => row.forEach((v, j) => expectSame(ws.getRow(header + 1 + i).getCell(j + 1).value, v, `${ws.name} row ${i + 1} ${t.fields[j]}`)));
      if (t.totals) t.totals.forEach((v, j) => v !== '' && expectSame(ws.getRow(header - 1).getCell(j + 1).value, v, `${ws.name} totals ${t.fields[j]}`));
      compared += t.rows.length * t.fields.length;
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('fetches nothing: a policy that forbids it, no external reference, and only the page\'s own style and script', () => {
    const page = readFileSync(out.nightly!.html!.path, 'utf8');
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; base-uri 'none'; form-action 'none'">/);
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toMatch(/<(link|iframe|object|embed|img)\b/);
    expect(page).not.toMatch(/(src|href|action)="(https?:)?\/\//);
    expect(page).not.toMatch(/\bstyle="/);
    expect(out.nightly!.html!.bytes).toBeLessThan(1_000_000);
  });

  it('shows the charts as inline SVG and the simulated-data banner when an account is simulated', async () => {
    const page = readFileSync(out.nightly!.html!.path, 'utf8');
    expect(page.match(/<figure class="chart"[^>]*><figcaption class="cue chart-cue">[^<]*<\/figcaption><svg /g)?.length).toBeGreaterThanOrEqual(2);
    const simulated = testConfig({ timeZone: TZ, accounts: [{ name: 'acct-a', apiKeyEnv: 'X', simulated: true }] });
    const r = await renderReportFormats({ store, config: simulated, report: 'nightly', outDir: join(dir, 'sim'), formats: ['html'] });
    expect(r.workbook).toBeUndefined();
    expect(page).toContain('<p class="banner" role="note">SIMULATED DATA – not a real account: demo</p>');
    expect(readFileSync(r.html!.path, 'utf8')).toContain('<p class="banner" role="note">SIMULATED DATA – not a real account: acct-a, demo</p>');
  });

  it('cuts a large section to its first rows, says so and where the rest is, and keeps the totals of all rows', async () => {
    const cut = await withReportSession({ store, config, report: 'nightly', outDir: join(dir, 'cut') }, (s) => writeHtmlReport(s, { rowLimit: 7 }));
    const detail = cut.sections.find((s) => s.name === 'Detail')!;
    expect(detail.rows).toBeGreaterThan(7);
    expect(detail.shown).toBe(7);
    const t = readHtmlTables(readFileSync(cut.path, 'utf8')).get('s-detail')!;
    expect(t.rows).toHaveLength(7);
    expect(t.note).toMatch(new RegExp(`^The first 7 of ${detail.rows.toLocaleString('en-US')} rows \\(the totals are of all of them\\); every row is on the 'Detail' sheet of gpuledger-nightly-2026-11-21\\.xlsx`));
    const full = readHtmlTables(readFileSync(out.nightly!.html!.path, 'utf8')).get('s-detail')!;
    expect(t.totals).toEqual(full.totals);
  });

  it('escapes names from the API everywhere, in text and attributes', () => {
    const evil = `<script>alert("x")</script>' onmouseover='alert(1)`;
    const page = tableHtml(
      { columns: [{ field: 'template_name', header: 'Template <b>', format: 'text', upIsBad: false, linksTo: 'Top resources' }], rows: [[evil]], totalRows: 1, emptyText: '' },
      'UTC',
      'x',
    );
    expect(page).not.toContain('<script>');
    expect(page).not.toContain("' onmouseover='");
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;alert(1)');
    expect(page).toContain('Template &lt;b&gt;');
  });
});
