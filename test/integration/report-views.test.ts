import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { insertRawBilling } from '../helpers/raw-billing.ts';
import { columnNumbers, columnOf, expectCents, headerRow, sheet, sum, totalValue } from '../helpers/workbook-read.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { shippedWorkbooks } from '../helpers/shipped-workbooks.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

// The shipped reports on the real views (sql/views), computed from raw billing rows of two accounts, one of
// them simulated. Every figure is checked against the same SQL the views answer.
describe('shipped reports on the real views', () => {
  const config = testConfig({ reports: { budget: { monthly: '60000' } }, timeZone: 'America/New_York' });
  const shipped = suiteFixture(async () => {
    const dir = tempDir('gpuledger-report-').dir;
    return shippedWorkbooks({ dir, store: await openStore({ path: join(dir, 'gpuledger.duckdb') }) }, config, async (store) => {
      await insertRawBilling(store, { account: 'prod', from: '2026-09-01', to: '2026-11-21', pods: 12, serverless: 3, volumes: 4, horizon: '2026-11-21T06:00:00Z' });
      await insertRawBilling(store, { account: 'demo', from: '2026-10-01', to: '2026-11-21', pods: 4, horizon: '2026-11-21T06:00:00Z', simulated: true });
    });
  });
  const one = (sql: string) => shipped.one(sql);

  it('takes the default periods from report_clock (the data horizon)', () => {
    expect(shipped.nightly.path).toBe(join(shipped.dir, 'gpuledger-nightly-2026-11-21.xlsx'));
    expect(shipped.monthly.path).toBe(join(shipped.dir, 'gpuledger-finance-monthly-2026-10.xlsx'));
    expect(shipped.nightly.summary.asOf).toBe('2026-11-21T06:00:00.000Z');
  });

  it('equals cost_daily in the Detail sheet, row for row and in total to the cent', async () => {
    for (const [wb, from, to] of [[shipped.nwb, '2026-11-01', '2026-11-21'], [shipped.mwb, '2026-10-01', '2026-10-31']] as const) {
      const ws = sheet(wb, 'Detail');
      const h = headerRow(ws, 'Day');
      const amount = columnOf(ws, h, 'Amount');
      const total = await one(`select sum(amount)::varchar as v from cost_daily where day between '${from}' and '${to}'`);
      const count = await one(`select count(*)::varchar as v from cost_daily where day between '${from}' and '${to}'`);
      expect(ws.rowCount - h).toBe(Number(count));
      expect(totalValue(ws.getRow(h - 1).getCell(amount))).toBe(Number(total));
      expectCents(sum(columnNumbers(ws, h + 1, amount)), total);
    }
  });

  it('shows the month to date of rpt_month_forecast on the summary and the same total on the template sheet', async () => {
    const mtd = await one(`select sum(month_to_date)::varchar as v from rpt_month_forecast where family = 'all'`);
    expect(shipped.nightly.summary.figures[0]).toMatchObject({ label: 'Month to date', value: mtd });
    const ws = sheet(shipped.nwb, 'By template');
    const h = headerRow(ws, 'Account');
    expectCents(totalValue(ws.getRow(h - 1).getCell(columnOf(ws, h, 'Month to date'))), mtd);
    const budget = shipped.nightly.summary.figures.find((f) => f.label === 'Monthly budget');
    expect(budget?.text).toBe('$60,000.00');
  });

  it('evaluates the monthly report as of October 31: its template total is October in cost_daily', async () => {
    const oct = await one(`select sum(amount)::varchar as v from cost_daily where day between '2026-10-01' and '2026-10-31'`);
    const ws = sheet(shipped.mwb, 'By template');
    const h = headerRow(ws, 'Account');
    expectCents(totalValue(ws.getRow(h - 1).getCell(columnOf(ws, h, 'Month'))), oct);
    expect(shipped.monthly.summary.figures[0]).toMatchObject({ label: 'Month total' });
    expectCents(Number(shipped.monthly.summary.figures[0]!.value), oct);
  });

  it('embeds its three charts (daily by family, the month against forecast, the balance) and labels the simulated account', () => {
    expect(sheet(shipped.nwb, 'Summary').getImages()).toHaveLength(3);
    expect(shipped.nightly.summary.simulatedAccounts).toEqual(['demo']);
    const detail = sheet(shipped.nwb, 'Detail');
    const top = [1, 2, 3, 4].map((r) => String(detail.getRow(r).getCell(1).value));
    expect(top.filter((t) => /^SIMULATED DATA – account demo is simulated/.test(t))).toHaveLength(1);
  });

  it('shows freshness timestamps in the configured time zone', () => {
    const ws = sheet(shipped.nwb, 'Summary');
    let loaded: unknown;
    ws.eachRow((row) => {
      if (row.getCell(1).value === 'prod' && row.getCell(2).value === 'pods') loaded = row.getCell(5).value;
    });
    // 2026-11-21 06:00 UTC is 01:00 in New York (EST, UTC−5)
    expect(loaded).toEqual(new Date('2026-11-21T01:00:00.000Z'));
  });
});
