// rpt_budgets (issue 39 §1): every budget of the shipped example config, on a simulator-synced store, has actual =
// the ledger of its scope to the cent – the cost fact summed by SQL over the budget's period to date – including the
// category-scoped one (the imaging team's share after allocation), and its thresholds and forecast read as promised.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAllocationRules } from '../../src/allocation/load-rules.ts';
import { answerWithBudgets, loadBudgets } from '../../src/alert/load-budgets.ts';
import { evaluateBudget } from '../../src/alert/rules/budget.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { Store } from '../../src/store/database.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { readSqlFile } from '../../src/transform/sql-files.ts';
import { renderReportFormats } from '../../src/report/render-formats.ts';
import { budgetsPage } from '../../src/serve/budgets-page.ts';
import { gpuledger } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { columnOf, headerRow, readWorkbook, sheet } from '../helpers/workbook-read.ts';
import { syncedDatabase, syncedStore } from '../helpers/synced-fixture.ts';

const example = parseConfig(JSON.parse(readFileSync(new URL('../../config/gpuledger.example.json', import.meta.url), 'utf8')), 'example');

type BudgetRow = {
  budget: string;
  period_start: string;
  as_of_date: string;
  amount: string;
  scope: string;
  actual: string;
  forecast: string | null;
  forecast_low: string | null;
  forecast_high: string | null;
  forecast_method: string | null;
  thresholds: string;
  thresholds_crossed: string;
  last_threshold_pct: number | null;
  thresholds_crossed_on: string | null;
  forecast_reaches_on: string | null;
  days_until_forecast_reaches: string | number | null;
};

/** The ledger of a budget's scope over its month to date, summed by SQL from the cost facts themselves. */
function ledgerSql(name: string): string {
  const period = `day >= (select month_start from report_clock) and day <= (select as_of_date from report_clock)`;
  if (name === 'imaging-team') return `select sum(amount)::varchar as s from cost_allocated where category = 'team' and value = 'imaging' and ${period}`;
  if (name === 'sdxl') return `select sum(amount)::varchar as s from cost_daily where (endpoint_name = 'sdxl-image-api' or endpoint_id = 'sdxl-image-api') and ${period}`;
  return `select sum(amount)::varchar as s from cost_daily where ${period}`;
}

describe('rpt_budgets on a synced store with the example config', () => {
  let store: Store;
  let rows: BudgetRow[];
  beforeAll(async () => {
    ({ store } = await syncedStore('gpuledger-budgets-'));
    await loadAllocationRules(store, example.allocation);
    await loadBudgets(store, example.alerts.budgets);
    await refreshMaterialized(store);
    rows = await store.all<BudgetRow>('select * from rpt_budgets order by budget');
  }, 120_000);
  afterAll(() => store?.close());

  it('has one row per budget of the example config, with its amount and scope in words', () => {
    expect(rows.map((r) => [r.budget, r.amount, r.scope])).toEqual([
      ['account', '25000.00', 'all spend'],
      ['imaging-team', '2500.00', 'team imaging'],
      ['sdxl', '3000.00', 'endpoint sdxl-image-api'],
    ]);
  });

  it('says actual = the ledger of its scope to the cent, a category scope included', async () => {
    for (const r of rows) {
      const [ledger] = await store.all<{ s: string | null }>(ledgerSql(r.budget));
      expect(Number(ledger!.s), r.budget).toBeGreaterThan(0); // a scope with spend: the comparison can fail
      expect((await store.all<{ same: boolean }>('select $1::decimal(38,6) = $2::decimal(38,6) as same', [r.actual, ledger!.s]))[0]!.same, r.budget).toBe(true);
    }
  });

  it('forecasts with a range around it, and names the method', () => {
    for (const r of rows) {
      expect(r.forecast, r.budget).not.toBeNull();
      expect(Number(r.forecast_low)).toBeLessThanOrEqual(Number(r.forecast));
      expect(Number(r.forecast_high)).toBeGreaterThanOrEqual(Number(r.forecast));
      expect(Number(r.forecast_low)).toBeGreaterThanOrEqual(Number(r.actual));
      expect(r.forecast_method).toBe('running resources + new-work rate');
    }
  });

  it('shows the actual and forecast the budget alert compares (sql/alerts/budget_*.sql), to the cent', async () => {
    for (const b of example.alerts.budgets) {
      const r = rows.find((x) => x.budget === b.name)!;
      const fine = b.scope.template ?? b.scope.endpoint ?? b.scope.gpuType ?? b.scope.category;
      const params: Record<string, string | null> = { account: b.account ?? null, family: b.scope.family ?? null };
      if (fine !== undefined || b.period !== 'month') {
        Object.assign(params, { period: b.period, template: b.scope.template ?? null, endpoint: b.scope.endpoint ?? null, gpu_type: b.scope.gpuType ?? null, category: b.scope.category ?? null, value: b.scope.value ?? null });
      }
      const file = Object.keys(params).length > 2 ? 'budget_spend' : 'budget_month_forecast';
      const [alert] = await store.all<{ actual: string; forecast: string | null }>(readSqlFile('alerts', file), params);
      const [mine] = await store.all<{ actual: string; forecast: string | null }>(
        'select round(actual, 2)::decimal(18,2)::varchar as actual, round(forecast, 2)::decimal(18,2)::varchar as forecast from rpt_budgets where budget = $1',
        [b.name],
      );
      expect(mine, b.name).toEqual({ actual: alert!.actual, forecast: alert!.forecast });
    }
  });

  it('dates each threshold crossing on the first day the cumulative actual reached it, and the day the forecast reaches the amount', async () => {
    // the sdxl endpoint against a budget it has crossed half of, and one its forecast reaches before the month ends
    const sdxl = example.alerts.budgets.find((b) => b.name === 'sdxl')!;
    const actual = Number(rows.find((r) => r.budget === 'sdxl')!.actual);
    const forecast = Number(rows.find((r) => r.budget === 'sdxl')!.forecast);
    const tight = (actual * 1.6).toFixed(2); // 50 % crossed, 80 % not; the forecast (×1.43) below it
    const reached = ((actual + forecast) / 2).toFixed(2); // beyond the actual, within the forecast
    const undo = await answerWithBudgets(store, [
      { ...sdxl, name: 'tight', amount: tight, thresholds: [50, 80, 100] },
      { ...sdxl, name: 'reached', amount: reached, thresholds: [100] },
    ]);
    try {
      const mine = await store.all<BudgetRow>('select * from rpt_budgets order by budget');
      expect(mine.map((r) => r.budget)).toEqual(['reached', 'tight']);
      for (const r of mine) {
        const days = await store.all<{ day: string; cumulative_amount: string | null; forecast_cumulative: string | null }>(
          'select day::varchar as day, cumulative_amount::varchar as cumulative_amount, forecast_cumulative::varchar as forecast_cumulative from rpt_budget_days where budget = $1 order by day',
          [r.budget],
        );
        expect(days).toHaveLength(30);
        expect(Number(days.filter((d) => d.cumulative_amount !== null).at(-1)!.cumulative_amount)).toBe(Number(r.actual));
        const expected = r.thresholds.split(', ').map(Number).flatMap((t) => {
          const first = days.find((d) => d.cumulative_amount !== null && Number(d.cumulative_amount) * 100 >= Number(r.amount) * t);
          return first ? [`${t} % on ${first.day}`] : [];
        });
        expect(r.thresholds_crossed_on ?? '', r.budget).toBe(expected.join(', '));
        expect(Number(r.thresholds_crossed)).toBe(expected.length);
        const reaches = days.find((d) => Number(d.forecast_cumulative ?? d.cumulative_amount) >= Number(r.amount));
        expect(r.forecast_reaches_on, r.budget).toBe(reaches?.day ?? null);
      }
      const tightRow = mine.find((r) => r.budget === 'tight')!;
      expect(tightRow.thresholds_crossed_on).toMatch(/^50 % on 2026-11-\d\d$/);
      expect(tightRow.forecast_reaches_on).toBeNull();
      expect(tightRow.days_until_forecast_reaches).toBeNull();
      const reachedRow = mine.find((r) => r.budget === 'reached')!;
      expect(reachedRow.thresholds_crossed_on).toBeNull();
      expect(reachedRow.forecast_reaches_on! > reachedRow.as_of_date).toBe(true);
      expect(Number(reachedRow.days_until_forecast_reaches)).toBe((Date.parse(reachedRow.forecast_reaches_on!) - Date.parse(reachedRow.as_of_date)) / 86_400_000);
    } finally {
      await undo();
    }
    // the stored budgets again, once the reader's own are dropped
    expect((await store.all('select budget from rpt_budgets')).length).toBe(3);
  });

  it('warns on the forecast only when the month is likely past the threshold: halfway from the forecast to its range\'s low end', async () => {
    // an account budget and an endpoint budget, each set just under its forecast (forecast alone would warn) and just
    // under the likely figure (it warns); the forecast's range is the account's own back-test
    for (const base of [example.alerts.budgets.find((b) => b.name === 'account')!, example.alerts.budgets.find((b) => b.name === 'sdxl')!]) {
      const probe = await evaluateBudget(store, { ...base, amount: '1000000000.00', thresholds: [100], on: ['forecast'] });
      expect(probe).toEqual([]);
      const scoped = base.scope.endpoint !== undefined;
      const params: Record<string, string | null> = scoped
        ? { account: null, family: null, period: 'month', template: null, endpoint: base.scope.endpoint!, gpu_type: null, category: null, value: null }
        : { account: null, family: null };
      const [row] = await store.all<{ actual: string; forecast: string; forecast_low: string }>(readSqlFile('alerts', scoped ? 'budget_spend' : 'budget_month_forecast'), params);
      const [f, low, actual] = [Number(row!.forecast), Number(row!.forecast_low), Number(row!.actual)];
      expect(low, base.name).toBeLessThan(f); // a range to judge within: the test can fail
      expect(low).toBeGreaterThanOrEqual(actual);
      const likely = f - (f - low) / 2;
      const withinError = ((likely + f) / 2).toFixed(2); // under the forecast, over the likely figure
      const likelyOver = (likely - 0.01).toFixed(2);
      expect(await evaluateBudget(store, { ...base, amount: withinError, thresholds: [100], on: ['forecast'] }), base.name).toEqual([]);
      const [warned] = await evaluateBudget(store, { ...base, amount: likelyOver, thresholds: [100], on: ['forecast'] });
      expect(warned?.severity, base.name).toBe('warning');
      expect(warned!.title).toMatch(new RegExp(`^Budget ${base.name}: forecast to reach \\d+\\.\\d % \\(\\d{4}-\\d\\d\\)$`));
      expect(warned!.message).toMatch(/, likely at least \$[\d,.]+ \(\d+\.\d %: halfway to the low end of its 80 % range, \$[\d,.]+, the figure a forecast threshold is judged on\)/);
    }
  });

  it('query answers with its config\'s budgets from a store that holds none, without writing (the same figures)', async () => {
    const { db } = await syncedDatabase('gpuledger-budgets-cli-');
    const config = new URL('../../config/gpuledger.example.json', import.meta.url).pathname;
    const sql = 'select budget, actual::varchar as actual from rpt_budgets order by budget';
    const empty = await gpuledger(['--db', db, 'query', sql, '--format', 'json']);
    expect(empty).toMatchObject({ code: 0, stdout: '[]\n' });
    const r = await gpuledger(['--config', config, '--db', db, 'query', sql, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    // the synced copy has no allocation rules stored: its imaging share is the reader's own rules' too
    expect(JSON.parse(r.stdout).map((x: { budget: string }) => x.budget)).toEqual(['account', 'imaging-team', 'sdxl']);
    expect(JSON.parse(r.stdout).find((x: { budget: string }) => x.budget === 'sdxl').actual).toBe(rows.find((x) => x.budget === 'sdxl')!.actual);
  });

  it('the nightly report shows every budget in its Budgets sheet and section, actual = the ledger to the cent', async () => {
    const out = await renderReportFormats({ store, config: example, report: 'nightly', outDir: tempDir('gpuledger-budgets-report-').dir, formats: ['xlsx', 'html'] });
    const ws = sheet(await readWorkbook(out.workbook!.path), 'Budgets');
    const h = headerRow(ws, 'Budget');
    const [name, actual, amount] = ['Budget', 'Actual to date', 'Budget amount'].map((header) => columnOf(ws, h, header));
    const shown = new Map<string, { actual: number; amount: number }>();
    for (let r = h + 1; r <= ws.rowCount; r++) {
      const row = ws.getRow(r);
      if (typeof row.getCell(name!).value === 'string') shown.set(String(row.getCell(name!).value), { actual: Number(row.getCell(actual!).value), amount: Number(row.getCell(amount!).value) });
    }
    expect([...shown.keys()].sort()).toEqual(['account', 'imaging-team', 'sdxl']);
    const page = readFileSync(out.html!.path, 'utf8');
    for (const r of rows) {
      const [ledger] = await store.all<{ s: string }>(`select round(s::decimal(38,6), 2)::varchar as s from (${ledgerSql(r.budget)})`);
      // the workbook cell holds the exact value; to the cent it is the ledger's
      expect(shown.get(r.budget)!.actual.toFixed(2), r.budget).toBe(ledger!.s);
      expect(shown.get(r.budget)!.amount).toBe(Number(r.amount));
      // the page writes it in its unit: $1,234.56
      const usd = `$${Number(ledger!.s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      expect(page, r.budget).toContain(usd);
    }
    expect(page).toContain('Budgets');
  });

  it('/budgets lists every budget with actual = the ledger to the cent, each with its chart and a link to its scope in the explorer', async () => {
    const page = await budgetsPage(store, { config: example, url: new URL('http://127.0.0.1/budgets'), simulatedAccounts: [] });
    for (const r of rows) {
      const [ledger] = await store.all<{ s: string }>(`select round(s::decimal(38,6), 2)::varchar as s from (${ledgerSql(r.budget)})`);
      const usd = `$${Number(ledger!.s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      // in the table's row of the budget, and as the chart's last actual point
      const row = new RegExp(`<tr[^>]*>(?:(?!</tr>).)*>${r.budget}</a>(?:(?!</tr>).)*${usd.replace(/[$.]/g, '\\$&')}`, 's');
      expect(page, r.budget).toMatch(row);
      const section = page.slice(page.indexOf(`id="s-budget-${r.budget}"`));
      expect(section.slice(0, section.indexOf('</section>')), r.budget).toContain(`>${usd}</text>`);
    }
    // the category-scoped budget links to the explorer filtered by its allocation value
    expect(page).toContain('/explore?from=2026-11-01&amp;to=2026-11-30&amp;granularity=day&amp;filter=category%3Ateam%3Aimaging');
    expect(page).toContain('filter=endpoint%3Asdxl-image-api');
  });
});
