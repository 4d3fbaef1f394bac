import { displayPath } from '../../src/util/display-path.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COST_FAMILIES, FAMILIES } from '../../src/model/index.ts';
import { renderReport } from '../../src/report/render.ts';
import { readSqlFile } from '../../src/transform/sql-files.ts';
import { twoAccountStore } from '../helpers/raw-billing.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { columnNumbers, columnOf, conditionalRules, expectCents, expectPrintable, headerRow, printTitleRows, readWorkbook, sheet, sum, totalValue } from '../helpers/workbook-read.ts';
import { shippedWorkbooks } from '../helpers/shipped-workbooks.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

// The shipped definitions through the real views, on raw billing rows of two accounts (test/report/raw-billing.ts);
// the same on a synced simulator account: test/integration/report-views.test.ts.
describe('shipped reports on two accounts of raw billing', () => {
  const config = testConfig({ reports: { budget: { monthly: '250000' } }, timeZone: 'Europe/Berlin' });
  const shipped = suiteFixture(async () => shippedWorkbooks(await twoAccountStore(), config));
  const one = (sql: string) => shipped.one(sql);

  it('defaults nightly to month to date as of the data and finance-monthly to the previous month', () => {
    expect(shipped.nightly.summary.period).toMatchObject({ kind: 'month_to_date', start: '2026-11-01', end: '2026-11-21' });
    expect(shipped.nightly.path).toBe(join(shipped.dir, 'gpuledger-nightly-2026-11-21.xlsx'));
    expect(shipped.monthly.summary.period).toMatchObject({ kind: 'month', start: '2026-10-01', end: '2026-10-31' });
    expect(shipped.monthly.path).toBe(join(shipped.dir, 'gpuledger-finance-monthly-2026-10.xlsx'));
    expect(shipped.monthly.summary.asOf).toBe('2026-10-31T23:59:59.000Z');
  });

  it('writes every sheet the nightly report promises', () => {
    expect(shipped.nwb.worksheets.map((w) => w.name)).toEqual([
      'Summary', 'Unit costs', 'Daily spend', 'By template', 'By endpoint', 'By GPU type', 'By category', 'Budgets', 'Top resources', 'Waste', 'Guardrails', 'Guardrail actions', 'Reconciliation', 'Detail', 'About',
    ]);
    expect(shipped.mwb.worksheets.map((w) => w.name)).toEqual([
      'Summary', 'By family', 'By template', 'By endpoint', 'By GPU type', 'Daily spend', 'By category', 'Top resources', 'Waste', 'Reconciliation', 'Detail', 'About',
    ]);
  });

  it('puts every cost_daily row of the period into Detail, with dates as dates and a total equal to SQL to the cent', async () => {
    const ws = sheet(shipped.nwb, 'Detail');
    const h = headerRow(ws, 'Day');
    const amount = columnOf(ws, h, 'Amount');
    const n = Number(await one(`select count(*)::varchar as v from cost_daily where day between '2026-11-01' and '2026-11-21'`));
    const total = await one(`select sum(amount)::varchar as v from cost_daily where day between '2026-11-01' and '2026-11-21'`);
    expect(ws.rowCount - h).toBe(n);
    expect(totalValue(ws.getRow(h - 1).getCell(amount))).toBe(Number(total));
    expectCents(sum(columnNumbers(ws, h + 1, amount)), total);
    const first = ws.getRow(h + 1).getCell(1);
    expect(first.value).toBeInstanceOf(Date);
    expect((first.value as Date).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(first.numFmt).toBe('yyyy-mm-dd');
    expect(ws.getRow(h + 1).getCell(amount).numFmt).toContain('"$"#,##0.00');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: h });
    expect(ws.autoFilter).toBe(`A${h}:L${ws.rowCount}`);
  });

  it('evaluates the monthly report as of the month end: its template totals are the whole of October', async () => {
    const ws = sheet(shipped.mwb, 'By template');
    const h = headerRow(ws, 'Account');
    const oct = await one(`select sum(amount)::varchar as v from cost_daily where day between '2026-10-01' and '2026-10-31'`);
    expectCents(totalValue(ws.getRow(h - 1).getCell(columnOf(ws, h, 'Month'))), oct);
    const detail = sheet(shipped.mwb, 'Detail');
    const dh = headerRow(detail, 'Day');
    expectCents(totalValue(detail.getRow(dh - 1).getCell(columnOf(detail, dh, 'Amount'))), oct);
  });

  it('makes the wide daily sheet add up across families and days', async () => {
    const ws = sheet(shipped.nwb, 'Daily spend');
    const h = headerRow(ws, 'Day');
    const totalCol = columnOf(ws, h, 'Total');
    const mtd = await one(`select sum(amount)::varchar as v from cost_daily where day between '2026-11-01' and '2026-11-21'`);
    expectCents(totalValue(ws.getRow(h - 1).getCell(totalCol)), mtd);
    expect(ws.rowCount - h).toBe(21);
    const families = FAMILIES.map((f) => columnOf(ws, h, COST_FAMILIES[f].label));
    for (let r = h + 1; r <= ws.rowCount; r++) {
      const row = ws.getRow(r);
      const parts = families.map((c) => row.getCell(c).value).filter((v): v is number => typeof v === 'number');
      expect(Math.abs(sum(parts) - (row.getCell(totalCol).value as number))).toBeLessThan(0.005);
    }
  });

  it('colours changes (up red, down green) and draws data bars on cost columns', () => {
    const ws = sheet(shipped.nwb, 'By template');
    const rules = conditionalRules(ws);
    const up = rules.find((r) => r.type === 'cellIs' && r.operator === 'greaterThan');
    const down = rules.find((r) => r.type === 'cellIs' && r.operator === 'lessThan');
    expect(up?.style?.font?.color?.argb).toBe('FFC00000');
    expect(down?.style?.font?.color?.argb).toBe('FF00703C');
    expect(rules.some((r) => r.type === 'dataBar')).toBe(true);
  });

  it('fills the summary: figures from the forecast view, its three charts as images, the simulated account labelled', async () => {
    const labels = shipped.nightly.summary.figures.map((f) => f.label);
    expect(labels).toEqual([
      'Month to date', 'Forecast for the month', 'Previous month to the same day', 'Change against it', 'Previous month in full', 'Monthly budget', 'Waste found (monthly cost)',
      // the Reconciliation sheet's verdict and totals (the email lists them too)
      'Reconciliation', 'Aggregate route (compared buckets)', 'Family routes (compared buckets)', 'Difference', 'Not compared',
    ]);
    const mtd = await one(`select sum(month_to_date)::varchar as v from rpt_month_forecast where family = 'all'`);
    expect(shipped.nightly.summary.figures[0]!.value).toBe(mtd);
    const ws = sheet(shipped.nwb, 'Summary');
    expect(ws.getImages()).toHaveLength(3);
    expect(shipped.nightly.summary.charts.map((c) => c.id).slice(0, 3)).toEqual(['daily_by_family', 'month_cumulative', 'balance_history']);
    const texts: string[] = [];
    ws.eachRow((row) => row.eachCell((c) => texts.push(String(c.value))));
    expect(texts.some((t) => t.startsWith('SIMULATED DATA – account demo is simulated'))).toBe(true);
    expect(texts.filter((t) => t === 'SIMULATED DATA')).toHaveLength(1); // the Accounts covered table
    expect(shipped.nightly.summary.simulatedAccounts).toEqual(['demo']);
  });

  it('reconciles the closed month in finance-monthly like with like: totals of the compared buckets, a verdict, only the differing bucket', async () => {
    const where = `where bucket_start >= date '2026-10-01' and bucket_start < date '2026-11-01'`;
    const compared = `${where} and status in ('agrees', 'differs')`;
    const figure = (label: string) => shipped.monthly.summary.figures.find((f) => f.label === label);
    const n = await one(`select count(*)::varchar as v from rpt_reconciliation ${compared}`);
    expect(Number(n)).toBeGreaterThan(100);
    expect(figure('Reconciliation')!.value).toBe(`1 of ${n} buckets (day) differ, by $1.23 in all`);
    expect(figure('Aggregate route (compared buckets)')!.value).toBe(await one(`select sum(aggregate_amount)::varchar as v from rpt_reconciliation ${compared}`));
    expect(figure('Family routes (compared buckets)')!.value).toBe(await one(`select sum(family_amount)::varchar as v from rpt_reconciliation ${compared}`));
    expect(figure('Difference')!.value).toBe('1.230000');
    // the aggregate is read by the day only: the family routes' hour buckets are counted, not added to a total
    const notCompared = await one(`select count(*)::varchar as v from rpt_reconciliation ${where} and status not in ('agrees', 'differs')`);
    expect(String(figure('Not compared')?.value ?? null)).toBe(Number(notCompared) > 0 ? notCompared : 'null');
    // the sheet lists the one differing bucket, nothing else
    const ws = sheet(shipped.mwb, 'Reconciliation');
    const h = headerRow(ws, 'Account');
    expect(ws.rowCount - h).toBe(1);
    expect(ws.getRow(h + 1).getCell(columnOf(ws, h, 'Family')).value).toBe('pod');
    expect(Number(ws.getRow(h + 1).getCell(columnOf(ws, h, 'Difference')).value)).toBe(1.23);
    const texts: string[] = [];
    ws.eachRow((row) => row.eachCell((c) => texts.push(String(c.value))));
    expect(texts).toContain(`1 of ${n} buckets (day) differ, by $1.23 in all`);
    const daily = sheet(shipped.mwb, 'Daily spend');
    expect(daily.rowCount - headerRow(daily, 'Day')).toBe(31);
  });

  it('says all buckets agree to the cent, and lists none, when the routes agree', async () => {
    const nsheet = sheet(shipped.nwb, 'Reconciliation');
    const n = await one(`select count(*)::varchar as v from rpt_reconciliation where bucket_start >= date '2026-11-01' and bucket_start < date '2026-11-22' and status in ('agrees', 'differs')`);
    const texts: string[] = [];
    nsheet.eachRow((row) => row.eachCell((c) => texts.push(String(c.value))));
    expect(texts).toContain(`All ${n} buckets (day) agree to the cent`);
    expect(texts).toContain('None – every compared bucket agrees to the cent.');
  });

  it('leaves out credits purchased while the database has no rpt_balance_daily, and shows them beside spend once it has', async () => {
    // an older database, from before the balance history: the view is missing
    await shipped.store.run('drop view rpt_balance_daily');
    try {
      const without = await renderReport({ store: shipped.store, config, report: 'finance-monthly', outDir: join(shipped.dir, 'no-credits') });
      expect(without.summary.figures.map((f) => f.label)).not.toContain('Credits purchased in the month');
      const about: string[] = [];
      sheet(await readWorkbook(without.path), 'About').eachRow((row) => about.push(String(row.getCell(2).value)));
      expect(about).toContain('Credits – not shown: this database has no rpt_balance_daily yet');
      await shipped.store.run(`create view rpt_balance_daily as
        select * from (values (date '2026-09-30', 900.00::decimal(18,2)), (date '2026-10-03', 500.00), (date '2026-10-20', 250.50), (date '2026-11-01', 70.00)) t(day, top_ups)`);
      const r = await renderReport({ store: shipped.store, config, report: 'finance-monthly', outDir: join(shipped.dir, 'credits') });
      const labels = r.summary.figures.map((f) => f.label);
      expect(labels.indexOf('Credits purchased in the month')).toBe(labels.indexOf('Monthly budget') + 1);
      const credits = r.summary.figures.find((f) => f.label === 'Credits purchased in the month')!;
      expect(Number(credits.value)).toBe(750.5);
      expect(credits.note).toMatch(/^spent \$/);
      // a second figures block right after the first still sits above the charts
      const ws = sheet(await readWorkbook(r.path), 'Summary');
      const creditsRow = ws.getRows(1, ws.rowCount)!.find((row) => row.getCell(1).value === 'Credits purchased in the month')!.number;
      expect(ws.getImages()[0]!.range.tl.nativeRow).toBeGreaterThan(creditsRow - 1);
    } finally {
      await shipped.store.run('drop view if exists rpt_balance_daily');
      await shipped.store.run(readSqlFile('views/reports', 'rpt_balance_daily'));
    }
  });

  it('shows every wrapped label and text whole: a row is as tall as the lines its wrapped cells need (LibreOffice keeps stored heights)', () => {
    let wrappedCells = 0;
    for (const ws of [...shipped.nwb.worksheets, ...shipped.mwb.worksheets]) {
      if (ws.name === 'About') continue;
      ws.eachRow((row) => {
        row.eachCell((cell, col) => {
          if (!cell.alignment?.wrapText || typeof cell.value !== 'string') return;
          const width = ws.getColumn(col).width ?? 10;
          const lines = Math.ceil(cell.value.length / Math.max(1, width - 2));
          if (lines < 2) return;
          wrappedCells += 1;
          expect(row.height ?? 15, `${ws.name}!${cell.address} '${cell.value.slice(0, 30)}…' needs ${lines} lines`).toBeGreaterThanOrEqual(lines * 15);
        });
      });
    }
    expect(wrappedCells, 'the Waste reasons at least wrap').toBeGreaterThan(0);
  });

  it('prints every sheet of both workbooks landscape, one page wide, with its header rows on each page and a footer', () => {
    for (const [wb, r] of [[shipped.nwb, shipped.nightly], [shipped.mwb, shipped.monthly]] as const) {
      for (const ws of wb.worksheets) expectPrintable(ws, { report: r.summary.title, period: r.summary.period.title });
    }
  });

  it('repeats a table sheet\'s totals and header rows on each printed page, and the Summary\'s heading', () => {
    const detail = sheet(shipped.mwb, 'Detail');
    const h = headerRow(detail, 'Day');
    expect(printTitleRows(detail)).toEqual([h - 1, h]);
    expect(printTitleRows(sheet(shipped.nwb, 'Summary'))).toEqual([1, 3]); // title, period line, SIMULATED DATA banner
  });

  it('keeps the Summary within one page width: columns no wider than a landscape page, as wide as the charts', () => {
    const ws = sheet(shipped.nwb, 'Summary');
    const widths = (ws.columns ?? []).map((c) => c.width ?? 9);
    const px = widths.reduce((a, w) => a + w * 7 + 5, 0);
    expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(160);
    for (const chart of shipped.nightly.summary.charts) expect(px).toBeGreaterThanOrEqual(chart.width);
  });

  it('records on the About sheet when, from what and with which queries the workbook was made', () => {
    const ws = sheet(shipped.nwb, 'About');
    const facts = new Map<string, string>();
    ws.eachRow((row) => facts.set(String(row.getCell(1).value), String(row.getCell(2).value)));
    expect(facts.get('Time zone')).toMatch(/^Europe\/Berlin/);
    expect(facts.get('Database'), 'no absolute path of the machine in a mailed workbook').toBe(displayPath(shipped.store.path));
    expect(facts.get('gpuledger version')).toMatch(/^\d+\.\d+\.\d+/);
    expect(facts.get('$period_start')).toBe('2026-11-01');
    const queries: string[] = [];
    ws.eachRow((row) => queries.push(String(row.getCell(3).value)));
    expect(queries.some((q) => q.includes('from rpt_cost_detail'))).toBe(true);
  });

  it('covers an explicit day range and names the file after it', async () => {
    const r = await renderReport({ store: shipped.store, config, report: 'nightly', period: '2026-10-01..2026-10-15', outDir: shipped.dir });
    expect(r.path).toBe(join(shipped.dir, 'gpuledger-nightly-2026-10-01_2026-10-15.xlsx'));
    const detail = r.summary.sheets.find((s) => s.name === 'Detail')!;
    expect(detail.totals.amount).toBe(await one(`select sum(amount)::varchar as v from cost_daily where day between '2026-10-01' and '2026-10-15'`));
    expect(r.summary.asOf).toBe('2026-10-15T23:59:59.000Z');
  });
});
