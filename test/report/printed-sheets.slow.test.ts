// Printed sheets checked the way a reader sees them (issue 38 §3): both shipped workbooks, rendered from a simulated
// account synced as the demo syncs it, converted to PDF by LibreOffice, and their words and images located on the page
// by poppler (test/helpers/pdf-boxes.ts). Each check is geometry: a key figure's label and value on one line, every
// chart on one page, a Waste row's cells on its "Why" text's line and no word printed over another, the SIMULATED DATA
// banner and label whole – and, read off the printed page, no "Complete = No" for a month that closed 30 days ago.
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { demoBaseConfig } from '../../src/config/demo-database.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { ConfigInput } from '../../src/config/schema.ts';
import { startSimulator } from '../../src/simulator/index.ts';
import { openStore } from '../../src/store/database.ts';
import { simulatedBanner } from '../../src/present/simulated.ts';
import { officeToPdf, overlap, pageTitle, pdfImages, popplerAvailable, readPdfBoxes, sameLine, soffice, type PdfBox, type PdfPage } from '../helpers/pdf-boxes.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { shippedWorkbooks } from '../helpers/shipped-workbooks.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { FAST_QUOTAS, syncOnce } from '../helpers/sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { columnOf, headerRow, sheet } from '../helpers/workbook-read.ts';

// the demo's account seen on 30 November: October, the finance report's default month, closed 30 days earlier
const NOW = '2026-11-30T06:00:00Z';
const ready = soffice !== undefined && popplerAvailable;
if (!ready) console.warn('SKIPPED: LibreOffice (soffice) or poppler-utils (pdftotext, pdfimages) is not installed – printed sheets are not checked');

async function printedReports() {
  const dir = tempDir('gpuledger-printed-').dir;
  const sim = await startSimulator({ now: NOW, anchor: NOW, scale: 'small', quotas: FAST_QUOTAS });
  try {
    // the demo's settings (the example config's budgets, allocation, thresholds), its simulated account, in UTC
    const input: ConfigInput = {
      ...JSON.parse(JSON.stringify(demoBaseConfig(testConfig(), undefined))),
      timeZone: 'UTC',
      apiUrl: sim.url,
      accounts: [{ name: 'demo', apiKeyEnv: 'GPULEDGER_TEST_KEY', simulated: true }],
      sync: { start: '2026-09-01T00:00:00Z' },
    };
    const config = parseConfig(input, 'test');
    const shipped = await shippedWorkbooks({ dir, store: await openStore({ path: join(dir, 'gpuledger.duckdb') }) }, config, async (store) => {
      await syncOnce(store, input);
    });
    const nightlyPdf = officeToPdf(shipped.nightly.path, join(dir, 'pdf'));
    const monthlyPdf = officeToPdf(shipped.monthly.path, join(dir, 'pdf'));
    return {
      ...shipped,
      nightlyPdf,
      monthlyPdf,
      npages: readPdfBoxes(nightlyPdf),
      mpages: readPdfBoxes(monthlyPdf),
      stop: async () => {
        await shipped.stop();
        await sim.close();
      },
    };
  } catch (e) {
    await sim.close();
    throw e;
  }
}

/**
 * The pages a sheet prints on: from the page its heading's title heads to the next sheet's (a long sheet's later pages
 * repeat only its totals and header rows).
 */
function sheetPages(pages: PdfPage[], wb: ExcelJS.Workbook, title: string): PdfPage[] {
  const titles = new Set([...wb.worksheets.map((w) => String(w.getRow(1).getCell(1).value)), ...wb.worksheets.map((w) => w.name)]);
  const first = pages.findIndex((p) => pageTitle(p) === title);
  expect(first, `the sheet "${title}" printed`).toBeGreaterThanOrEqual(0);
  const next = pages.findIndex((p, i) => i > first && titles.has(pageTitle(p)));
  return pages.slice(first, next < 0 ? undefined : next);
}

/**
 * Where a cell's `text` starts printing: its first word followed, on the same line, by its next words (up to `n`;
 * fewer when the cell wraps sooner). pdftotext joins neighbouring cells into one line, so words, not lines, are matched.
 */
function textStarts(pages: PdfPage[], text: string, n = 3): PdfBox[] {
  const want = text.split(/\s+/).slice(0, n);
  const all = pages.flatMap((p) => p.words);
  const next = (w: PdfBox) => all.filter((o) => o !== w && sameLine(o, w) && o.xMin >= w.xMax - 0.5 && o.xMin - w.xMax < 8).sort((x, y) => x.xMin - y.xMin)[0];
  const runs = all.filter((w) => w.text === want[0]).map((w) => {
    let at: PdfBox | undefined = w;
    let k = 1;
    while (k < want.length && (at = next(at)) && at.text === want[k]) k += 1;
    return { w, k };
  });
  const best = Math.max(0, ...runs.map((r) => r.k));
  const found = runs.filter((r) => r.k === best).map((r) => r.w);
  expect(found.length, `"${text}" printed`).toBeGreaterThan(0);
  return found;
}

const words = (pages: PdfPage[], text: string) => pages.flatMap((p) => p.words).filter((w) => w.text === text);

describe.skipIf(!ready)('both shipped workbooks printed by LibreOffice', () => {
  const printed = suiteFixture(printedReports, 300_000);

  it('renders nightly for 30 November and finance-monthly for October', () => {
    expect(printed.nightly.path).toMatch(/nightly-2026-11-30\.xlsx$/);
    expect(printed.monthly.path).toMatch(/finance-monthly-2026-10\.xlsx$/);
  });

  it('prints each key figure on its label\'s line, the Summary\'s on nightly page 1', () => {
    const pages = printed.npages;
    const figures = printed.nightly.summary.figures;
    let onPage1 = 0;
    for (const f of figures) {
      const labels = textStarts(pages, f.label, 2);
      const values = textStarts(pages, f.text, 3);
      const pair = values.find((v) => labels.some((l) => v.xMin > l.xMax && sameLine(v, l)));
      expect(pair, `"${f.label}" and ${f.text} on one line`).toBeDefined();
      if (pair!.page === 1) onPage1 += 1;
    }
    expect(onPage1).toBeGreaterThanOrEqual(6);
  });

  it('prints every chart on one page, never split across a page break', async () => {
    for (const [pdf, report, count] of [[printed.nightlyPdf, printed.nightly, 3], [printed.monthlyPdf, printed.monthly, 1]] as const) {
      const images = pdfImages(pdf);
      const objects = new Map<number, Set<number>>();
      for (const i of images) objects.set(i.object, (objects.get(i.object) ?? new Set()).add(i.page));
      expect(objects.size, `${report.path}: its charts`).toBeGreaterThanOrEqual(count);
      for (const [object, pages] of objects) expect([...pages], `${report.path}: chart object ${object} drawn on pages`).toHaveLength(1);
    }
  });

  it('prints each Waste row\'s account, amount and finding on the line its "Why" text starts', () => {
    const ws = sheet(printed.mwb, 'Waste');
    const h = headerRow(ws, 'Finding');
    const [account, cost, why, id] = ['Account', 'Monthly cost', 'Why', 'Finding ID'].map((c) => columnOf(ws, h, c));
    const pages = sheetPages(printed.mpages, printed.mwb, 'Waste');
    expect(pages.length).toBeGreaterThan(0);
    let rows = 0;
    for (let r = h + 1; r <= ws.rowCount; r++) {
      const row = ws.getRow(r);
      const text = String(row.getCell(why!).value ?? '');
      if (!text) continue;
      rows += 1;
      const starts = textStarts(pages, text);
      expect(starts, `"${text}" printed once`).toHaveLength(1);
      const first = starts[0]!;
      const amount = `$${Number(row.getCell(cost!).value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      for (const cell of [String(row.getCell(account!).value), amount, String(row.getCell(id!).value)]) {
        expect(words(pages, cell).some((w) => sameLine(w, first)), `Waste row ${r}: "${cell}" on the line of "${first.text}"`).toBe(true);
      }
    }
    expect(rows).toBeGreaterThanOrEqual(3);
  });

  it('prints no word over another, on any page of either workbook', () => {
    for (const pages of [printed.npages, printed.mpages]) {
      for (const p of pages) {
        const clashes: string[] = [];
        p.words.forEach((a, i) => p.words.slice(i + 1).forEach((b) => overlap(a, b) && clashes.push(`"${a.text}" × "${b.text}"`)));
        expect(clashes, `page ${p.page} (${pageTitle(p)})`).toEqual([]);
      }
    }
  });

  it('prints the SIMULATED DATA banner and label whole, on one line', () => {
    const banner = simulatedBanner(['demo']);
    for (const [pages, wb] of [[printed.npages, printed.nwb], [printed.mpages, printed.mwb]] as const) {
      const all = pages.flatMap((p) => p.words);
      const marks = all.filter((w) => w.text.startsWith('SIMULATED'));
      expect(marks.length).toBeGreaterThan(wb.worksheets.length);
      for (const m of marks) {
        const next = all.find((w) => w !== m && sameLine(w, m) && w.xMin >= m.xMax && w.xMin - m.xMax < 8);
        expect(`${m.text} ${next?.text ?? ''}`, `page ${m.page}: SIMULATED DATA whole`).toMatch(/^SIMULATED DATA\b/);
      }
      // each sheet's banner reads to its end
      const banners = pages.flatMap((p) => p.lines).filter((l) => l.text.startsWith('SIMULATED DATA –'));
      expect(banners.length).toBeGreaterThanOrEqual(wb.worksheets.length);
      for (const b of banners) expect(b.text, `page ${b.page}`).toBe(banner);
    }
  });

  it('prints Complete = Yes for every family and every day of the month that closed 30 days earlier', async () => {
    const family = sheetPages(printed.mpages, printed.mwb, 'By family');
    const ws = sheet(printed.mwb, 'By family');
    const families = ws.rowCount - headerRow(ws, 'Account');
    expect(families).toBeGreaterThanOrEqual(3);
    expect(words(family, 'No')).toEqual([]);
    expect(words(family, 'Yes')).toHaveLength(families);
    const daily = sheetPages(printed.mpages, printed.mwb, 'Daily spend');
    for (let d = 1; d <= 31; d++) {
      // the day's cell: a word at the start of its row (the heading's "data as of 2026-10-31" is not one)
      const day = words(daily, `2026-10-${String(d).padStart(2, '0')}`).filter((w) => w.xMin < 60);
      expect(day, `2026-10-${d} printed once`).toHaveLength(1);
      const onLine = daily.flatMap((p) => p.words).filter((w) => sameLine(w, day[0]!)).map((w) => w.text);
      expect(onLine, `2026-10-${d}`).toContain('Yes');
      expect(onLine, `2026-10-${d}`).not.toContain('No');
    }
  });
});

