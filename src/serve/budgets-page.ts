// /budgets in `serve` (issue 39 §1): every budget of the config (rpt_budgets) against its actual and forecast, and
// each budget's period drawn as a cumulative line against its amount – the actual to date, the forecast with its
// 80 % range, the thresholds – by the report's own chart (report/charts/svg.ts), with a link to the explorer showing
// the budget's scope, where the same budget is drawn on the chart (explore/budgets.ts).
import type { BudgetRule } from '../config/alerts.ts';
import { scopeFilters } from '../explore/budgets.ts';
import { dataTable, hrefWith, html, section, chartRow, sectionId, type Markup, type TableColumn } from '../present/index.ts';
import { cumulativeChart, queryAll } from '../report/index.ts';
import type { Store } from '../store/database.ts';
import { resultTable, servedPage, type PageContext } from './pages.ts';

const SUMMARY = `select budget, scope, period_start, amount, actual, actual_pct, forecast, forecast_low, forecast_high, forecast_pct,
  thresholds_crossed_on, forecast_reaches_on, days_until_forecast_reaches
from rpt_budgets order by period, budget`;

const DAYS = `select budget, day::varchar as day, cumulative_amount::double as actual, forecast_cumulative::double as forecast,
  forecast_low_cumulative::double as low, forecast_high_cumulative::double as high
from rpt_budget_days order by budget, day`;

type DayRow = { budget: string; day: string; actual: number | null; forecast: number | null; low: number | null; high: number | null };

/** The explorer over the budget's period and scope, by day: the view whose sum the budget watches. */
function exploreHref(b: BudgetRule, period: { start: string; end: string }): string {
  return hrefWith('/explore', { from: period.start, to: period.end, granularity: 'day', filter: scopeFilters(b) });
}

export async function budgetsPage(store: Store, ctx: PageContext): Promise<string> {
  const budgets = ctx.config.alerts.budgets;
  const summary = await queryAll(store, SUMMARY, {}, 'budgets');
  const table = resultTable(summary, { emptyText: 'No budgets configured (alerts.budgets in the config; see README, Alerts).' });
  // each budget links to its chart below
  table.columns = table.columns.map((c): TableColumn => (c.field === 'budget' ? { ...c, link: (v) => ({ href: `#${sectionId(`budget ${String(v)}`)}` }) } : c));
  const days = (await store.all<DayRow>(DAYS)) as DayRow[];
  const rows = summary.rows.map((r) => Object.fromEntries(summary.columns.map((c, i) => [c.name, r[i]])) as Record<string, unknown>);
  const sections: Markup[] = rows.map((r) => {
    const name = String(r.budget);
    const rule = budgets.find((b) => b.name === name);
    const mine = days.filter((d) => d.budget === name);
    const amount = Number(r.amount);
    const svg = cumulativeChart(
      `${name}: cumulative spend against ${r.period_start ? `the budget of the period from ${String(r.period_start)}` : 'the budget'}`,
      {
        days: mine.map((d) => d.day),
        actual: mine.map((d) => d.actual),
        forecast: mine.map((d) => d.forecast),
        low: mine.map((d) => d.low),
        high: mine.map((d) => d.high),
        budget: amount,
        thresholds: (rule?.thresholds ?? []).map((pct) => ({ pct, value: (amount * pct) / 100 })),
      },
      { width: 1100, height: 320, font: 'sans-serif' },
    );
    const period = { start: mine[0]?.day ?? String(r.period_start), end: mine.at(-1)?.day ?? String(r.period_start) };
    const explore = rule ? html`<p class="sub"><a href="${exploreHref(rule, period)}">Open ${String(r.scope)} in the explorer</a></p>` : html``;
    return section({ id: sectionId(`budget ${name}`), title: `Budget ${name} – ${String(r.scope)}`, body: [chartRow([{ title: `Budget ${name}`, svg }]), explore] });
  });
  const body = html`${section({ id: 's-budgets', title: 'Every budget, this period', body: dataTable({ ...table, label: 'budgets', timeZone: ctx.config.timeZone }) })}${sections}`;
  return servedPage(ctx, 'Budgets', ['Each budget of the config (alerts.budgets): the actual to date, the forecast of the period’s end with its 80 % range, the thresholds crossed and when.'], body);
}
