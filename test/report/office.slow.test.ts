import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/render.ts';
import { twoAccountStore } from '../helpers/raw-billing.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { readWorkbook } from '../helpers/workbook-read.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

// Opening the workbook in a real office suite: LibreOffice headless converts it to CSV (every sheet) and PDF.
// CI installs libreoffice-calc-nogui (.ci/run); where soffice is missing these tests are skipped, visibly.
const soffice = ['soffice', 'libreoffice'].find((cmd) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0);
if (!soffice) console.warn('SKIPPED: LibreOffice (soffice) is not installed – the workbook is not opened in an office suite');

// One soffice call per format for all the files of this test: a LibreOffice start costs more CPU than converting a
// workbook (measured: ~1.3 CPU-s a start), and one call converts every file it is given into the same folder.
function convert(files: string[], to: string, outDir: string): void {
  const profile = `file://${tempDir('gpuledger-lo-profile-').dir}`;
  const r = spawnSync(soffice!, [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', to, '--outdir', outDir, ...files], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`soffice failed (${r.status}): ${r.stderr}`);
}

/** Minimal CSV reader for LibreOffice's output (comma, double quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else if (ch !== '\r') cell += ch;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

/**
 * The nightly report and finance-monthly of a closed month, rendered from the two accounts into one folder and
 * converted by LibreOffice into csv/ (every sheet, values unformatted) and pdf/ – both workbooks in each soffice call.
 */
async function convertedWorkbooks() {
  const { dir, store } = await twoAccountStore();
  const stop = () => store.close();
  try {
    const nightly = await renderReport({ store, config: testConfig(), report: 'nightly', outDir: dir });
    const financeMonthly = await renderReport({ store, config: testConfig(), report: 'finance-monthly', period: '2026-10', outDir: dir });
    const files = [nightly.path, financeMonthly.path];
    // all sheets (token 12 = -1), values unformatted (token 9 = false) so figures can be compared exactly
    convert(files, 'csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1', join(dir, 'csv'));
    convert(files, 'pdf', join(dir, 'pdf'));
    return { dir, store, nightly, financeMonthly, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

describe.skipIf(!soffice)('the workbooks in LibreOffice', () => {
  const books = suiteFixture(() => convertedWorkbooks(), 300_000);

  describe('the nightly workbook in LibreOffice', () => {
    const csv = (sheet: string) => {
      const base = basename(books.nightly.path, '.xlsx');
      return parseCsv(readFileSync(join(books.dir, 'csv', `${base}-${sheet}.csv`), 'utf8'));
    };

    it('converts every sheet to CSV', () => {
      const files = readdirSync(join(books.dir, 'csv')).sort();
      for (const name of ['Summary', 'Daily spend', 'By template', 'Detail', 'About']) {
        expect(files).toContain(`${basename(books.nightly.path, '.xlsx')}-${name}.csv`);
      }
    });

    it('shows the Detail rows and a total equal to the SQL total to the cent', async () => {
      const rows = csv('Detail');
      const h = rows.findIndex((r) => r[0] === 'Day');
      const amount = rows[h]!.indexOf('Amount');
      const total = (await books.store.one<{ v: string }>(`select sum(amount)::varchar as v from cost_daily where day between '2026-11-01' and '2026-11-21'`))!.v;
      const count = (await books.store.one<{ n: string }>(`select count(*)::varchar as n from cost_daily where day between '2026-11-01' and '2026-11-21'`))!.n;
      expect(rows.slice(h + 1).filter((r) => r[0] !== '')).toHaveLength(Number(count));
      expect(Math.abs(Number(rows[h - 1]![amount]) - Number(total))).toBeLessThan(0.005);
      expect(rows[h + 1]![0]).toMatch(/^2026-11-01$/); // a date cell, shown in its yyyy-mm-dd format
    });

    it('carries the summary figures and the simulated-data label', () => {
      const text = csv('Summary').map((r) => r.join(' ')).join('\n');
      const mtd = books.nightly.summary.figures.find((f) => f.label === 'Month to date')!;
      expect(text).toContain('Month to date');
      expect(text).toContain(String(Number(mtd.value as string)).slice(0, 6));
      expect(text).toContain('SIMULATED DATA');
    });

    it('exports a PDF', () => {
      const pdf = join(books.dir, 'pdf', basename(books.nightly.path).replace(/\.xlsx$/, '.pdf'));
      expect(existsSync(pdf)).toBe(true);
      expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
      expect(statSync(pdf).size).toBeGreaterThan(10_000);
    });
  });

  describe('the finance-monthly workbook of a closed month in LibreOffice', () => {
    const SHEETS = ['Summary', 'By family', 'By template', 'By endpoint', 'By GPU type', 'Daily spend', 'By category', 'Top resources', 'Waste', 'Reconciliation', 'Detail', 'About'];

    it('opens with every sheet finance reads, Reconciliation among them', () => {
      const base = basename(books.financeMonthly.path, '.xlsx');
      const files = readdirSync(join(books.dir, 'csv'));
      for (const name of SHEETS) expect(files).toContain(`${base}-${name}.csv`);
      const recon = parseCsv(readFileSync(join(books.dir, 'csv', `${base}-Reconciliation.csv`), 'utf8'));
      expect(recon.some((r) => r.includes('Aggregate route') && r.includes('Family routes'))).toBe(true);
    });

    it('sets every sheet to one page wide, landscape', async () => {
      const wb = await readWorkbook(books.financeMonthly.path);
      expect(wb.worksheets.map((w) => w.name)).toEqual(SHEETS);
      for (const ws of wb.worksheets) expect(ws.pageSetup, ws.name).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
    });

    it('prints landscape pages in LibreOffice', () => {
      const pdf = readFileSync(join(books.dir, 'pdf', basename(books.financeMonthly.path).replace(/\.xlsx$/, '.pdf'))).toString('latin1');
      const boxes = [...pdf.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
      expect(boxes.length).toBeGreaterThan(0);
      for (const [w, h] of boxes) expect(w).toBeGreaterThan(h);
    });
  });
});
