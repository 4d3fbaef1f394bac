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

function convert(file: string, to: string, outDir: string): void {
  const profile = `file://${tempDir('gpuledger-lo-profile-').dir}`;
  const r = spawnSync(soffice!, [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', to, '--outdir', outDir, file], {
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

/** A report rendered from the two accounts and converted by LibreOffice into csv/ (every sheet, values unformatted) and pdf/. */
async function convertedWorkbook(report: string, period?: string) {
  const { dir, store } = await twoAccountStore();
  const stop = () => store.close();
  try {
    const rendered = await renderReport({ store, config: testConfig(), report, ...(period ? { period } : {}), outDir: dir });
    // all sheets (token 12 = -1), values unformatted (token 9 = false) so figures can be compared exactly
    convert(rendered.path, 'csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1', join(dir, 'csv'));
    convert(rendered.path, 'pdf', join(dir, 'pdf'));
    return { dir, store, rendered, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

describe.skipIf(!soffice)('the nightly workbook in LibreOffice', () => {
  const office = suiteFixture(() => convertedWorkbook('nightly'), 300_000);
  const csv = (sheet: string) => {
    const base = basename(office.rendered.path, '.xlsx');
    return parseCsv(readFileSync(join(office.dir, 'csv', `${base}-${sheet}.csv`), 'utf8'));
  };

  it('converts every sheet to CSV', () => {
    const files = readdirSync(join(office.dir, 'csv')).sort();
    for (const name of ['Summary', 'Daily spend', 'By template', 'Detail', 'About']) {
      expect(files).toContain(`${basename(office.rendered.path, '.xlsx')}-${name}.csv`);
    }
  });

  it('shows the Detail rows and a total equal to the SQL total to the cent', async () => {
    const rows = csv('Detail');
    const h = rows.findIndex((r) => r[0] === 'Day');
    const amount = rows[h]!.indexOf('Amount');
    const total = (await office.store.one<{ v: string }>(`select sum(amount)::varchar as v from cost_daily where day between '2026-11-01' and '2026-11-21'`))!.v;
    const count = (await office.store.one<{ n: string }>(`select count(*)::varchar as n from cost_daily where day between '2026-11-01' and '2026-11-21'`))!.n;
    expect(rows.slice(h + 1).filter((r) => r[0] !== '')).toHaveLength(Number(count));
    expect(Math.abs(Number(rows[h - 1]![amount]) - Number(total))).toBeLessThan(0.005);
    expect(rows[h + 1]![0]).toMatch(/^2026-11-01$/); // a date cell, shown in its yyyy-mm-dd format
  });

  it('carries the summary figures and the simulated-data label', () => {
    const text = csv('Summary').map((r) => r.join(' ')).join('\n');
    const mtd = office.rendered.summary.figures.find((f) => f.label === 'Month to date')!;
    expect(text).toContain('Month to date');
    expect(text).toContain(String(Number(mtd.value as string)).slice(0, 6));
    expect(text).toContain('SIMULATED DATA');
  });

  it('exports a PDF', () => {
    const pdf = join(office.dir, 'pdf', basename(office.rendered.path).replace(/\.xlsx$/, '.pdf'));
    expect(existsSync(pdf)).toBe(true);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(statSync(pdf).size).toBeGreaterThan(10_000);
  });
});

describe.skipIf(!soffice)('the finance-monthly workbook of a closed month in LibreOffice', () => {
  const office = suiteFixture(() => convertedWorkbook('finance-monthly', '2026-10'), 300_000);
  const SHEETS = ['Summary', 'By family', 'By template', 'By endpoint', 'By GPU type', 'Daily spend', 'By category', 'Top resources', 'Waste', 'Reconciliation', 'Detail', 'About'];

  it('opens with every sheet finance reads, Reconciliation among them', () => {
    const base = basename(office.rendered.path, '.xlsx');
    const files = readdirSync(join(office.dir, 'csv'));
    for (const name of SHEETS) expect(files).toContain(`${base}-${name}.csv`);
    const recon = parseCsv(readFileSync(join(office.dir, 'csv', `${base}-Reconciliation.csv`), 'utf8'));
    expect(recon.some((r) => r.includes('Aggregate route') && r.includes('Family routes'))).toBe(true);
  });

  it('sets every sheet to one page wide, landscape', async () => {
    const wb = await readWorkbook(office.rendered.path);
    expect(wb.worksheets.map((w) => w.name)).toEqual(SHEETS);
    for (const ws of wb.worksheets) expect(ws.pageSetup, ws.name).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
  });

  it('prints landscape pages in LibreOffice', () => {
    const pdf = readFileSync(join(office.dir, 'pdf', basename(office.rendered.path).replace(/\.xlsx$/, '.pdf'))).toString('latin1');
    const boxes = [...pdf.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(boxes.length).toBeGreaterThan(0);
    for (const [w, h] of boxes) expect(w).toBeGreaterThan(h);
  });
});
