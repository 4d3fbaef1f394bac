// The truth audit (issue 25 §5): every summary figure of both shipped reports against the simulator's own ledger –
// what every resource cost each hour, the top-ups and the balance after every charge, the spend limit – never
// against our views. The account is synced as the demo is, the simulator is then started again two days later
// (same seed and anchor: the same account, seen later, as `npm start` the next night sees it) and synced again as
// the nightly job does; the reports are rendered as workbook and HTML page from that store.
//
// Not derivable from the ledger, so not audited here: the forecast itself and its range (a model; its inputs are),
// waste findings (a judgement over the inventory), jobs per day (estimates from queue counters sampled only at each
// sync), and the cost of a GPU-type scope (it mixes pods, clusters and Serverless pools by the store's attribution).
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import type { Config } from '../../src/config/schema.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { renderReportFormats, type RenderedFormats } from '../../src/report/index.ts';
import { runNightly, type NightlyResult } from '../../src/run/nightly.ts';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { runSync } from '../../src/extract/sync.ts';
import { withReader, writeSessions } from '../../src/store/shared-database.ts';
import { microsToDecimalString } from '../../src/util/decimal.ts';
import { silentLogger } from '../../src/util/log.ts';
import { FAST_QUOTAS, KEY } from '../helpers/sync.ts';
import { columnOf, headerRow, readWorkbook, sheet } from '../helpers/workbook-read.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';

const DAY = 86_400_000;
const ANCHOR = '2026-11-20T12:34:56Z';
const FIRST = ANCHOR;
const SECOND = '2026-11-22T15:10:00Z';

const usd = (micros: bigint | number) => microsToDecimalString(BigInt(micros));
const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const dayStart = (d: string) => Date.parse(`${d}T00:00:00Z`);

function demoConfig(sim: Simulator, dir: string): Config {
  return parseConfig(
    {
      apiUrl: sim.url,
      outDir: dir,
      accounts: [{ name: 'demo', apiKeyEnv: 'GPULEDGER_TEST_KEY', simulated: true }],
      // September on: the previous month of both reports is loaded in full
      sync: { start: '2026-09-01T00:00:00Z' },
      alerts: { channels: [{ type: 'file', path: `${dir}/alerts.ndjson` }] },
    },
    'test',
  );
}

async function nightly(sim: Simulator, tmp: TempDir): Promise<NightlyResult> {
  const config = demoConfig(sim, tmp.dir);
  const result = await runNightly({
    config,
    dbPath: tmp.db,
    accounts: resolveAccounts(config, sim.url, { GPULEDGER_TEST_KEY: KEY }),
    log: silentLogger,
    outDir: tmp.dir,
    email: false,
    client: { initialRatePerSecond: 1000 },
  });
  expect(result.steps.map((s) => [s.step, s.status])).toContainEqual(['sync', 'ok']);
  return result;
}

describe('truth audit: both reports against the simulator ledger, after a second night', () => {
  let tmp: TempDir;
  let sim: Simulator;
  let night: NightlyResult;
  let monthly: RenderedFormats;
  let nwb: ExcelJS.Workbook;
  let mwb: ExcelJS.Workbook;
  let nhtml: string;
  let mhtml: string;
  /** What the ledger billed in [a, b), all routes together, as the API answers at the simulator's now. */
  const billed = (a: number, b: number) => sim.ledger.sum({ source: 'aggregate', start: new Date(a), end: new Date(Math.min(b, sim.now().getTime())) }).totalAmount;
  const figure = (r: { summary: { figures: { label: string; value: unknown }[] } }, label: string) => {
    const f = r.summary.figures.find((x) => x.label === label);
    expect(f, label).toBeDefined();
    return f!.value;
  };

  beforeAll(async () => {
    tmp = tempDir('gpuledger-truth-');
    const first = await startSimulator({ now: FIRST, anchor: ANCHOR, quotas: FAST_QUOTAS });
    try {
      // the first night's sync (its workbook is not what is audited)
      const config = demoConfig(first, tmp.dir);
      const sync = await runSync({
        sessions: writeSessions({ dbPath: tmp.db, command: 'sync' }),
        config,
        accounts: resolveAccounts(config, first.url, { GPULEDGER_TEST_KEY: KEY }),
        log: silentLogger,
        client: { initialRatePerSecond: 1000 },
      });
      expect(sync.status).toBe('success');
    } finally {
      await first.close();
    }
    sim = await startSimulator({ now: SECOND, anchor: ANCHOR, quotas: FAST_QUOTAS });
    night = await nightly(sim, tmp);
    const config = demoConfig(sim, tmp.dir);
    monthly = await withReader(tmp.db, (store) => renderReportFormats({ store, config, report: 'finance-monthly', outDir: tmp.dir, formats: ['xlsx', 'html'] }));
    nwb = await readWorkbook(night.workbook!.path);
    mwb = await readWorkbook(monthly.workbook!.path);
    nhtml = readFileSync(night.html!.path, 'utf8');
    mhtml = readFileSync(monthly.html!.path, 'utf8');
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    tmp?.cleanup();
  });

  it('evaluates the nightly report as of the second night and the monthly one over October', () => {
    expect(night.workbook!.summary.asOf).toBe(new Date(SECOND).toISOString());
    expect(night.workbook!.summary.period).toMatchObject({ start: '2026-11-01', end: '2026-11-22' });
    expect(monthly.workbook!.summary.period).toMatchObject({ start: '2026-10-01', end: '2026-10-31' });
  });

  it('month to date, the previous month to the same day and in full: what the ledger billed', () => {
    const r = night.workbook!;
    const nov1 = dayStart('2026-11-01');
    const oct1 = dayStart('2026-10-01');
    expect(figure(r, 'Month to date')).toBe(usd(billed(nov1, Date.parse(SECOND))));
    expect(figure(r, 'Previous month to the same day')).toBe(usd(billed(oct1, dayStart('2026-10-23'))));
    expect(figure(r, 'Previous month in full')).toBe(usd(billed(oct1, nov1)));
    expect(figure(r, 'Change against it')).toBe(usd(billed(nov1, Date.parse(SECOND)) - billed(oct1, dayStart('2026-10-23'))));
    const m = monthly.workbook!;
    expect(figure(m, 'Month total')).toBe(usd(billed(oct1, nov1)));
    expect(figure(m, 'Previous month')).toBe(usd(billed(dayStart('2026-09-01'), oct1)));
    expect(figure(m, 'Change')).toBe(usd(billed(oct1, nov1) - billed(dayStart('2026-09-01'), oct1)));
  });

  /** Rows of a report view from the published store: what a block or sheet reads, to compare with the ledger. */
  const rows = <T extends Record<string, unknown>>(sql: string) => withReader(tmp.db, (store) => store.all<T>(sql));
  const days = (from: string, to: string) => {
    const out: string[] = [];
    for (let t = dayStart(from); t <= dayStart(to); t += DAY) out.push(utcDay(t));
    return out;
  };
  /** The cells under a header row (the first row holding `first` after `after`), keyed by header. */
  function tableBelow(ws: ExcelJS.Worksheet, first: string, after = 0): Record<string, unknown>[] {
    let h = 0;
    ws.eachRow((row, n) => {
      if (h === 0 && n > after && row.getCell(1).value === first) h = n;
    });
    expect(h, `a table headed '${first}' on ${ws.name}`).toBeGreaterThan(0);
    const headers: string[] = [];
    ws.getRow(h).eachCell((c, col) => (headers[col] = String(c.value)));
    const out: Record<string, unknown>[] = [];
    for (let n = h + 1; n <= ws.rowCount; n++) {
      const row = ws.getRow(n);
      if (row.getCell(1).value === null || row.getCell(1).value === undefined) break;
      const rec: Record<string, unknown> = {};
      // the first of two columns with one header wins (Unit costs has Quantity twice: the number and its basis)
      headers.forEach((name, col) => name && !(name in rec) && (rec[name] = row.getCell(col).value));
      out.push(rec);
    }
    return out;
  }
  const sheetTexts = (ws: ExcelJS.Worksheet) => {
    const texts: string[] = [];
    ws.eachRow((row) => row.eachCell((c) => texts.push(String(c.value))));
    return texts;
  };

  it('the forecast reads the days the ledger billed: every day of the month so far, its 28 days of history, the share of the open day to come', async () => {
    expect(night.workbook!.summary.figures.find((f) => f.label === 'Month to date')!.note).toBe('day 22 of 30');
    const spend = await rows<{ day: string; amount: string }>(`select day::varchar as day, sum(amount)::varchar as amount from rpt_spend_daily group by day order by day`);
    const expected = days('2026-09-01', '2026-11-22').map((d) => ({ day: d, amount: usd(billed(dayStart(d), dayStart(d) + DAY)) }));
    expect(spend).toEqual(expected);
    const cumulative = await rows<{ day: string; amount: string }>(`select day::varchar as day, sum(amount)::varchar as amount from rpt_month_cumulative where not is_forecast group by day order by day`);
    expect(cumulative).toEqual(expected.filter((d) => d.day >= '2026-11-01'));
    const forecastDays = await rows<{ day: string; is_history: boolean; share_to_come: string }>(
      `select day::varchar as day, is_history, share_to_come::varchar as share_to_come from rpt_forecast_days where is_history or share_to_come > 0 and share_to_come < 1 order by day`,
    );
    expect(forecastDays.filter((d) => d.is_history).map((d) => d.day)).toEqual(days('2026-10-25', '2026-11-21'));
    const open = forecastDays.find((d) => !d.is_history)!;
    expect(open.day).toBe('2026-11-22');
    expect(Number(open.share_to_come)).toBeCloseTo((dayStart('2026-11-23') - Date.parse(SECOND)) / DAY, 9);
  });

  it('Daily spend: each day as the ledger billed it, Complete only where the ledger no longer restates it and freshness says final', async () => {
    const ws = sheet(nwb, 'Daily spend');
    const table = tableBelow(ws, 'Day');
    const freshness = await rows<{ through: string }>(`select min(complete_through)::varchar as through from rpt_data_freshness where bucket_size is not null`);
    const finalThrough = Date.parse(freshness[0]!.through.replace(' ', 'T').replace('+00', 'Z'));
    const summaryFinal = tableBelow(sheet(nwb, 'Summary'), 'Account', 0).length; // the summary's tables exist
    expect(summaryFinal).toBeGreaterThan(0);
    expect(table.map((r) => r.Day instanceof Date ? utcDay((r.Day as Date).getTime()) : String(r.Day))).toEqual(days('2026-11-01', '2026-11-22'));
    for (const r of table) {
      const d = utcDay((r.Day as Date).getTime());
      const from = dayStart(d);
      expect(Number(r.Total), d).toBe(Number(usd(billed(from, from + DAY))));
      const complete = r.Complete === true || r.Complete === 'Yes';
      // complete ⇔ ended and within what freshness calls final; and then the ledger's amount is its final one
      expect(complete, `${d} Complete`).toBe(from + DAY <= finalThrough && from + DAY <= Date.parse(SECOND));
      if (complete) expect(usd(billed(from, from + DAY)), d).toBe(usd(sim.ledger.sum({ source: 'aggregate', start: new Date(from), end: new Date(from + DAY) }).totalAmount));
    }
    const complete = await rows<{ last_complete_day: string }>(`select last_complete_day::varchar as last_complete_day from rpt_complete_through`);
    expect(complete[0]!.last_complete_day).toBe(utcDay(finalThrough - DAY));
  });

  it('the balance at each day end is the top-ups less what the ledger billed, never negative; today\'s runway and spend limit as the platform says', async () => {
    const reloads = sim.balance.schedule();
    const hs = sim.account.historyStart.getTime();
    const toppedUp = (t: number) => reloads.filter((r) => r.at.getTime() < t).reduce((s, r) => s + BigInt(r.amountMicros), 0n);
    const balance = await rows<{ day: string; balance_end: string; top_ups: string; balance_basis: string }>(
      `select day::varchar as day, balance_end::varchar as balance_end, top_ups::varchar as top_ups, balance_basis from rpt_balance_daily order by day`,
    );
    expect(balance.map((b) => b.day)).toEqual(days('2026-09-01', '2026-11-22'));
    const wrong: string[] = [];
    for (const b of balance) {
      const end = Math.min(dayStart(b.day) + DAY, Date.parse(SECOND));
      const truth = toppedUp(end) - billed(hs, end);
      expect(truth > 0n, `${b.day} true balance`).toBe(true);
      if (Number(b.balance_end) < 0) wrong.push(`${b.day} negative ${b.balance_end}`);
      if (b.balance_end !== usd(truth)) wrong.push(`${b.day} ${b.balance_basis} ${b.balance_end} ≠ ${usd(truth)}`);
      const topUps = reloads.filter((r) => utcDay(r.at.getTime()) === b.day).reduce((s, r) => s + BigInt(r.amountMicros), 0n);
      if (b.top_ups !== usd(topUps)) wrong.push(`${b.day} top-ups ${b.top_ups} ≠ ${usd(topUps)}`);
    }
    expect(wrong).toEqual([]);

    const now = sim.balance.at(sim.now().getTime());
    const [runway] = tableBelow(sheet(nwb, 'Summary'), 'Account').filter((r) => 'Balance' in r);
    expect(runway).toBeDefined();
    expect(Number(runway!.Balance)).toBe(Number(usd(now.balanceMicros)));
    expect(Number(runway!['Spend per hour'])).toBe(Number(usd(now.spendPerHourMicros)));
    // the runway in hours (unit hours: "168.9 h"), as the ledger's balance over its spend per hour gives it
    expect(Number(runway!.Runway)).toBeCloseTo(now.balanceMicros / now.spendPerHourMicros, 1);
    // a percent, 0–100, as rpt_runway holds it (to one decimal)
    expect(Number(runway!['Spend limit used'])).toBeCloseTo((100 * now.spendPerHourMicros) / 1e6 / now.spendLimit, 1);
    expect(runway!.Basis).toBe('observed');
  });

  it('reconciliation compares the same day buckets on both routes: every one agrees, and the totals are what the ledger billed', () => {
    const families = 5; // pod, serverless, storage, public_endpoint, cluster: the aggregate answers for each every day
    for (const [r, wb, html, from, to, end] of [
      [night.workbook!, nwb, nhtml, '2026-11-01', '2026-11-22', Date.parse(SECOND)],
      [monthly.workbook!, mwb, mhtml, '2026-10-01', '2026-10-31', dayStart('2026-11-01')],
    ] as const) {
      const n = days(from, to).length * families;
      const verdict = `All ${n} buckets (day) agree to the cent`;
      expect(figure(r, 'Reconciliation')).toBe(verdict);
      expect(figure(r, 'Aggregate route (compared buckets)')).toBe(usd(billed(dayStart(from), end)));
      expect(figure(r, 'Family routes (compared buckets)')).toBe(usd(billed(dayStart(from), end)));
      expect(figure(r, 'Difference')).toBe('0.000000');
      const texts = sheetTexts(sheet(wb, 'Reconciliation'));
      expect(texts).toContain(verdict);
      expect(texts).toContain('None – every compared bucket agrees to the cent.');
      expect(html).toContain(verdict);
    }
  });

  it('credits purchased in October are the top-ups the platform completed in October', () => {
    const oct = sim.balance.schedule().filter((x) => utcDay(x.at.getTime()).startsWith('2026-10')).reduce((s, x) => s + BigInt(x.amountMicros), 0n);
    expect(Number(figure(monthly.workbook!, 'Credits purchased in the month'))).toBe(Number(usd(oct)));
    expect(Number(figure(monthly.workbook!, 'Credits less spend'))).toBe(Number(usd(oct - billed(dayStart('2026-10-01'), dayStart('2026-11-01')))));
  });

  it('top movers compare whole days: each endpoint\'s cost to the last ended day, as the ledger billed it', () => {
    const movers = tableBelow(sheet(nwb, 'Summary'), 'By').filter((r) => r.By === 'Endpoint');
    expect(movers.length).toBeGreaterThan(0);
    for (const m of movers) {
      const e = sim.account.endpoints.find((x) => x.name === m.Name)!;
      const cost = (a: string, b: string) => sim.ledger.sum({ source: 'serverless', start: new Date(dayStart(a)), end: new Date(dayStart(b)), resourceId: e.id }).totalAmount;
      expect(Number(m['Month to the last whole day']), `${e.name} this month`).toBe(Number(usd(cost('2026-11-01', '2026-11-22'))));
      expect(Number(m['Previous month to the same day']), `${e.name} last month`).toBe(Number(usd(cost('2026-10-01', '2026-10-22'))));
    }
  });

  it('unit costs: the latest ended day\'s cost and GPU-hours of each scope as the ledger billed them, marked final only when freshness says so', async () => {
    const table = tableBelow(sheet(nwb, 'Unit costs'), 'Account');
    const [complete] = await rows<{ last_complete_day: string }>(`select last_complete_day::varchar as last_complete_day from rpt_complete_through`);
    const a = sim.account;
    let checked = 0;
    for (const r of table.filter((x) => x.Metric === 'gpu_hours')) {
      const day = utcDay((r.Day as Date).getTime());
      // the open day is left out (its cost and quantity are partial); Final as freshness says
      expect(day < '2026-11-22', `${r.Scope} ${day}`).toBe(true);
      expect(r.Final, `${r.Scope} Final`).toBe(day <= complete!.last_complete_day ? 'Yes' : 'No');
      const from = dayStart(day);
      const to = from + DAY;
      const overlap = (s: number, e: number) => Math.max(0, Math.min(e, to) - Math.max(s, from)) / 3_600_000;
      // GPU-hours as the simulator ran them: pods' running intervals, clusters' life, Serverless worker-hours billed
      const pods = a.pods.filter((p) => p.gpu && p.cluster === null).map((p) => {
        let h = 0;
        for (let i = 0; i < p.activity.starts.length; i++) if (p.activity.states[i] === 1) h += overlap(p.activity.starts[i]!, p.activity.ends[i]!);
        return { hours: h * p.gpu!.count };
      });
      const clusters = a.clusters.map((c) => ({ hours: overlap(c.createdAt.getTime(), c.terminatedAt?.getTime() ?? Infinity) * c.podCount * c.gpuCountPerPod }));
      const endpoints = a.endpoints.filter((e) => e.pools).map((e) => {
        const bill = sim.ledger.sum({ source: 'serverless', start: new Date(from), end: new Date(to), resourceId: e.id });
        // worker-hours × GPUs per worker: the GPU amount over the price of one worker-hour
        return { name: e.name, hours: (Number(bill.gpuAmount) / 1e6 / e.workerPrice) * e.gpuCount, cost: bill.totalAmount };
      });
      const sum = (xs: { hours: number }[]) => xs.reduce((t, x) => t + x.hours, 0);
      const family = (source: 'pods' | 'clusters' | 'serverless') => sim.ledger.sum({ source, start: new Date(from), end: new Date(to) }).totalAmount;
      const scope = String(r.Scope);
      let truth: { cost: bigint; hours: number } | undefined;
      if (scope === 'whole account') truth = { cost: billed(from, to), hours: sum(pods) + sum(clusters) + sum(endpoints) };
      else if (scope === 'family:pod') truth = { cost: family('pods'), hours: sum(pods) };
      else if (scope === 'family:cluster') truth = { cost: family('clusters'), hours: sum(clusters) };
      else if (scope === 'family:serverless') truth = { cost: family('serverless'), hours: sum(endpoints) };
      else if (scope.startsWith('endpoint:')) {
        const e = endpoints.find((x) => x.name === scope.slice('endpoint:'.length));
        if (e) truth = { cost: e.cost, hours: e.hours };
      }
      if (!truth) continue; // GPU types mix pods, clusters and pools: their cost split is not the ledger's to say
      expect(Number(r.Cost), `${scope} cost`).toBe(Number(usd(truth.cost)));
      expect(Number(r.Quantity), `${scope} GPU-hours`).toBeCloseTo(truth.hours, 4);
      expect(Number(r['Cost per unit']), `${scope} per GPU-hour`).toBeCloseTo(Number(usd(truth.cost)) / truth.hours, 6);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });
});
