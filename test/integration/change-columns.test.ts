// Change columns that add up (issue 38 §5): on every sheet of both shipped reports that shows a change, a row's change
// is its amount now less its amount before – a row new in the period changes by its whole amount ("new" in its
// percent column), a row gone by minus what it was – and the totals row's change is the change of the totals: total
// now less total before, to the cent, in the workbook's cells (exceljs) and in the HTML page's totals row, its exact
// value and its text. The data has a row of each kind: prod billed since September, demo since October (new in the
// finance month), fresh since November (new in the nightly month), gone until October (gone in the nightly month).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sectionId } from '../../src/present/index.ts';
import { writeHtmlReport } from '../../src/report/html/index.ts';
import { withReportSession } from '../../src/report/report-session.ts';
import { openStore } from '../../src/store/database.ts';
import { decimalStringToMicros, microsToDecimalString } from '../../src/util/decimal.ts';
import { unitText } from '../../src/model/index.ts';
import { readHtmlTables } from '../helpers/html-read.ts';
import { insertRawBilling } from '../helpers/raw-billing.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { shippedWorkbooks } from '../helpers/shipped-workbooks.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { totalValue } from '../helpers/workbook-read.ts';

const HORIZON = '2026-11-21T06:00:00Z';

/** The amount now and before of a change column, by header: nightly's month to date, finance's whole month. */
function pairOf(headers: readonly string[]): { now: number; before: number; change: number; pct: number } | undefined {
  const change = headers.indexOf('Change');
  if (change < 0) return undefined;
  const now = headers.includes('Month to date') ? headers.indexOf('Month to date') : headers.indexOf('Month');
  const before = headers.includes('Previous month to date') ? headers.indexOf('Previous month to date') : headers.indexOf('Previous month');
  return { now, before, change, pct: headers.indexOf('Change %') };
}

/** A cell's amount in micro-dollars: the cells hold the exact amounts, six decimals, well inside a double's digits. */
const micros = (v: unknown) => Math.round(Number(v ?? 0) * 1e6);

describe('change columns of the shipped reports add up', () => {
  const config = testConfig({ timeZone: 'UTC' });
  const shipped = suiteFixture(async () => {
    const dir = tempDir('gpuledger-change-').dir;
    const reports = await shippedWorkbooks({ dir, store: await openStore({ path: join(dir, 'gpuledger.duckdb') }) }, config, async (store) => {
      await insertRawBilling(store, { account: 'prod', from: '2026-09-01', to: '2026-11-21', pods: 6, serverless: 2, volumes: 2, horizon: HORIZON, podInventory: true });
      await insertRawBilling(store, { account: 'demo', from: '2026-10-01', to: '2026-11-21', pods: 3, serverless: 1, horizon: HORIZON, simulated: true });
      await insertRawBilling(store, { account: 'fresh', from: '2026-11-05', to: '2026-11-21', pods: 2, horizon: HORIZON });
      await insertRawBilling(store, { account: 'gone', from: '2026-09-01', to: '2026-10-31', pods: 2, horizon: HORIZON });
    });
    const html: Record<string, string> = {};
    for (const report of ['nightly', 'finance-monthly']) {
      const page = await withReportSession({ store: reports.store, config, report, outDir: dir }, (s) => writeHtmlReport(s));
      html[report] = readFileSync(page.path, 'utf8');
    }
    return { ...reports, html };
  });

  /** Every table sheet of a workbook that shows a change: its header row and the columns of the change. */
  const changeSheets = (wb: ExcelJS.Workbook) =>
    wb.worksheets.flatMap((ws) => {
      for (let r = 2; r <= Math.min(ws.rowCount, 20); r++) {
        const headers = (ws.getRow(r).values as unknown[]).map((v) => (typeof v === 'string' ? v : ''));
        const pair = pairOf(headers);
        // a table with a totals row above its headers (the summary's small tables have none)
        if (pair && pair.now > 0 && pair.before > 0 && typeof ws.getRow(r - 1).getCell(pair.change).value === 'object') return [{ ws, header: r, ...pair }];
      }
      return [];
    });

  it('nightly: a top mover new this month reads "new" in its percent change on the summary sheet and the page', () => {
    const ws = shipped.nwb.getWorksheet('Summary')!;
    let header = 0;
    for (let r = 1; r <= ws.rowCount && !header; r++) if ((ws.getRow(r).values as unknown[]).includes('Change %')) header = r;
    expect(header).toBeGreaterThan(0);
    const headers = (ws.getRow(header).values as unknown[]).map((v) => (typeof v === 'string' ? v : ''));
    const [before, change, pct] = ['Previous month to the same day', 'Change', 'Change %'].map((h) => headers.indexOf(h));
    const marks: string[] = [];
    for (let r = header + 1; r <= ws.rowCount && ws.getRow(r).getCell(change!).value !== null; r++) {
      const row = ws.getRow(r);
      if (micros(row.getCell(before!).value) === 0 && micros(row.getCell(change!).value) !== 0) marks.push(String(row.getCell(pct!).value));
    }
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => m === 'new')).toBe(true);
    expect(shipped.html.nightly).toMatch(/<td[^>]*data-v="">new<\/td>/);
  });

  for (const [report, key] of [['nightly', 'nwb'], ['finance-monthly', 'mwb']] as const) {
    it(`${report}: every row's change in the workbook is its amount now less before, a new row's its whole amount marked new`, () => {
      const sheets = changeSheets(shipped[key]);
      expect(sheets.map((s) => s.ws.name)).toEqual(expect.arrayContaining(report === 'nightly' ? ['By template', 'By endpoint', 'By GPU type', 'Top resources'] : ['By family', 'By template', 'By endpoint', 'By GPU type']));
      let fresh = 0;
      for (const { ws, header, now, before, change, pct } of sheets) {
        for (let r = header + 1; r <= ws.rowCount; r++) {
          const row = ws.getRow(r);
          const [n, b, c] = [row.getCell(now).value, row.getCell(before).value, row.getCell(change).value];
          if (n === null && b === null && c === null) continue;
          expect(`${ws.name} row ${r}: change ${micros(c)}`).toBe(`${ws.name} row ${r}: change ${micros(n) - micros(b)}`);
          if (pct > 0 && micros(b) === 0 && micros(n) !== 0) {
            expect(`${ws.name} row ${r}: ${row.getCell(pct).value}`).toBe(`${ws.name} row ${r}: new`);
            fresh++;
          }
        }
      }
      if (report === 'nightly') expect(fresh).toBeGreaterThan(0);
    });

    it(`${report}: every change total in the workbook is total now less total before`, () => {
      const sheets = changeSheets(shipped[key]);
      for (const { ws, header, now, before, change } of sheets) {
        const totals = ws.getRow(header - 1);
        const want = micros(totalValue(totals.getCell(now))) - micros(totalValue(totals.getCell(before)));
        expect(`${ws.name}: total change ${micros(totalValue(totals.getCell(change)))}`).toBe(`${ws.name}: total change ${want}`);
      }
    });

    it(`${report}: every change total on the HTML page is total now less total before, in its exact value and its text`, () => {
      const page = shipped.html[report]!;
      const tables = readHtmlTables(page);
      const names = changeSheets(shipped[key]).map((s) => s.ws.name);
      for (const name of names) {
        const id = sectionId(name);
        const t = tables.get(id);
        expect(t, `section ${name}`).toBeDefined();
        const pair = pairOf(t!.headers)!;
        const [n, b, c] = [pair.now, pair.before, pair.change].map((i) => decimalStringToMicros(t!.totals![i] || '0'));
        expect(`${name}: total change ${microsToDecimalString(c!)}`).toBe(`${name}: total change ${microsToDecimalString(n! - b!)}`);
        // what a person reads in the totals row: the same figure, signed
        const section = new RegExp(`<section id="${id}"[\\s\\S]*?<tr class="totals">([\\s\\S]*?)</tr>`).exec(page)![1]!;
        const texts = [...section.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
        expect(`${name}: ${texts[pair.change]}`).toBe(`${name}: ${unitText(microsToDecimalString(n! - b!), 'usd', { signed: true, micros: true })}`);
      }
    });
  }
});
