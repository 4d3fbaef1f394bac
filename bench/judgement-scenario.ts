// One scenario of the judgement benchmark (bench/judgement.ts): the simulator serves it, the product's sync reads
// it into a fresh DuckDB file, every night of the evaluation months is back-tested through runAlerts and the month-end
// forecast is read at days 7, 14 and 21 – the steps 1–3 of judgement.ts's header; the scores are judgement-score.ts's.
// Development switches (environment variables, so each scenario's own process sees them): JUDGEMENT_DB_CACHE,
// JUDGEMENT_DUMP, JUDGEMENT_FORECAST_ONLY, JUDGEMENT_NIGHTLY_FORECASTS, JUDGEMENT_KEEP.
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runAlerts } from '../src/alert/index.ts';
import { parseConfig } from '../src/config/load.ts';
import type { ConfigInput } from '../src/config/schema.ts';
import type { Source } from '../src/config/sync.ts';
import { resolveAccounts } from '../src/extract/accounts.ts';
import { runSync } from '../src/extract/sync.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { startSimulator, type SyntheticAccount } from '../src/simulator/index.ts';
import type { ScenarioLabels } from '../src/simulator/scenarios/index.ts';
import { silentLogger } from '../src/util/log.ts';
import {
  dayMs, dayText, runRateProjection, scoreAnomalies, scoreBudget, weekdayProjection, type BudgetNight, type ForecastPoint, type Page,
} from './judgement-score.ts';


const DAY = 86_400_000;
const KEY_ENV = 'GPULEDGER_BENCH_KEY';
const KEY = 'sim-demo-key';
const FAST_QUOTAS = { minute: 1_000_000, hour: 100_000_000, day: 1_000_000_000 };
export const FORECAST_DAYS = [7, 14, 21] as const;
/** JUDGEMENT_FORECAST_ONLY=1 skips the nightly alert back-test (development: a forecast change is scored in seconds). */
const forecastOnly = process.env.JUDGEMENT_FORECAST_ONLY === '1';
/** The fixed split: even seeds are for tuning, odd seeds are held out (looked at only to report). */
export const splitOf = (seed: number) => (seed % 2 === 0 ? 'tuning' : 'held-out');

const sink = () => new Writable({ write: (_c, _e, done) => done() });

function configFor(url: string, labels: ScenarioLabels, outDir: string): ConfigInput {
  return {
    apiUrl: url,
    outDir,
    accounts: [{ name: 'sim', apiKeyEnv: KEY_ENV, simulated: true }],
    sync: { start: labels.historyStart },
    alerts: {
      // the scenario's one label a user would write themselves: their monthly budget
      budgets: [{ name: 'monthly', period: 'month', amount: labels.budget, thresholds: [80, 100], on: ['actual', 'forecast'] }],
      // not scored here, so not evaluated: the back-test takes every rule's time every night
      waste: { enabled: false },
      dataQuality: { enabled: false },
      unitCost: { enabled: false },
    },
  };
}

/**
 * The fewest inventory reads that see every resource alive at least once (the classic interval-stabbing greedy:
 * by the end of its life, read just before the first resource no read has seen yet ends), from the scenario's
 * account – the harness's schedule of syncs, as a daily cron's reads would have seen them, never a detector's input.
 */
function readMoments(account: SyntheticAccount, end: number): number[] {
  const MINUTE = 60_000;
  const lives = [
    ...account.pods.map((p) => [p.createdAt.getTime(), p.terminatedAt?.getTime() ?? Infinity] as const),
    ...account.endpoints.map((e) => [e.createdAt.getTime(), e.deletedAt?.getTime() ?? Infinity] as const),
    ...account.volumes.map((v) => [v.createdAt.getTime(), v.deletedAt?.getTime() ?? Infinity] as const),
  ].filter(([from, to]) => from < end && to > from + MINUTE && to <= end).sort((a, b) => a[1] - b[1]);
  const reads: number[] = [];
  for (const [from, to] of lives) {
    if (reads.length > 0 && reads.at(-1)! >= from) continue;
    reads.push(Math.max(from, Math.floor((to - MINUTE) / MINUTE) * MINUTE));
  }
  return reads;
}

function evaluationDays(labels: ScenarioLabels): string[] {
  const first = dayMs(`${labels.evaluationMonths[0]}-01`);
  const [y, m] = labels.evaluationMonths.at(-1)!.split('-').map(Number) as [number, number];
  const end = Date.UTC(y, m, 1);
  return Array.from({ length: Math.round((end - first) / DAY) }, (_, i) => dayText(first + i * DAY));
}

function pageOf(day: string, c: { key: string; rule: string; severity: string; title: string; details: Record<string, unknown> }): Page {
  const drivers = Array.isArray(c.details.drivers) ? (c.details.drivers as { resource_id: string }[]).map((d) => d.resource_id) : [];
  const series = Array.isArray(c.details.series)
    ? (c.details.series as { dimension: string; series_id: string }[]).filter((s) => s.dimension !== 'family').map((s) => s.series_id)
    : [];
  return { day, key: c.key, rule: c.rule, severity: c.severity, title: c.title, drivers, series };
}

async function dailyTotals(store: Store): Promise<Map<string, number>> {
  const rows = await store.all<{ day: string; amount: string }>(`select day::varchar as day, sum(amount)::varchar as amount from cost_daily group by day`);
  return new Map(rows.map((r) => [r.day, Number(r.amount)]));
}

async function forecastAt(store: Store, asOf: string) {
  await store.run(`set variable gpuledger_as_of = $1::timestamptz`, [asOf]);
  try {
    return await store.one<{ forecast: string | null; forecast_low: string | null; forecast_high: string | null }>(
      `select forecast::varchar as forecast, forecast_low::varchar as forecast_low, forecast_high::varchar as forecast_high from rpt_month_forecast where family = 'all' and account = 'sim'`,
    );
  } finally {
    await store.run('reset variable gpuledger_as_of');
  }
}

export async function runScenario(kind: string, seed: number) {
  const started = performance.now();
  // a post-paid scenario (labels.postpaid) is served post-paid by the simulator itself; the config says nothing of
  // it, so the product must see it from the balance
  const sim = await startSimulator({ scenario: { kind, seed }, quotas: FAST_QUOTAS });
  const labels = sim.scenario!;
  const tmp = mkdtempSync(join(tmpdir(), 'gpuledger-judgement-'));
  const dbPath = join(tmp, 'scenario.duckdb');
  try {
    const config = parseConfig(configFor(sim.url, labels, tmp), 'bench');
    const accounts = resolveAccounts(config, config.apiUrl, { [KEY_ENV]: KEY });
    // one store held through the syncs (as the sync tests and benchmarks do): a writing session per nightly read would
    // copy and publish the whole file 184 times
    const syncStore = await openStore({ path: dbPath, command: 'sync' });
    const sync = async (sources?: Source[]) => {
      const result = await runSync({ accounts, store: syncStore, config, log: silentLogger, command: 'sync', ...(sources ? { sources } : {}) });
      if (result.status !== 'success') throw new Error(`${kind}:${seed}: the sync at ${sim.now().toISOString()} ended ${result.status}: ${JSON.stringify(result.errors)}`);
    };
    // A nightly job reads the inventory every day, so it knows the name, template and GPU type of a training job
    // that lived two days; one backfill at the end would bill such a job under no name at all. Reading the
    // inventory 184 times costs minutes, so it is read (with the balance) only at the moments that record what a
    // daily read would: whenever a resource is alive that no earlier read saw (readMoments).
    // JUDGEMENT_DB_CACHE=DIR (development only) keeps each scenario's synced database there and starts from it next
    // time: tuning a detector reruns the back-test, not the sync, which the detectors do not change
    const cached = process.env.JUDGEMENT_DB_CACHE ? join(process.env.JUDGEMENT_DB_CACHE, `${kind}-${seed}.duckdb`) : undefined;
    if (cached && existsSync(cached)) {
      await syncStore.close();
      copyFileSync(cached, dbPath);
    } else {
      for (const t of readMoments(sim.account, Date.parse(labels.end))) {
        sim.setNow(new Date(t));
        await sync(['inventory', 'balance']);
      }
      sim.setNow(labels.end);
      await sync();
      await syncStore.close();
      if (cached) copyFileSync(dbPath, cached);
    }
    const synced = performance.now();

    const store = await openStore({ path: dbPath, command: 'alerts' });
    try {
      const pages: Page[] = [];
      const budgetNights: BudgetNight[] = [];
      // the nightly cron ran before the evaluation months too: what fires the night before them was paged then
      const eve = dayText(dayMs(evaluationDays(labels)[0]!) - DAY);
      const before = await runAlerts({ store, config, dryRun: true, asOf: new Date(`${eve}T06:00:00Z`), withRestatements: true, now: new Date(`${eve}T06:00:00Z`), stdout: sink(), log: silentLogger });
      let firing = new Set<string>(before.conditions.map((c) => c.key));
      // JUDGEMENT_DUMP=DIR (development only): every night's anomaly conditions with their details, and the labels,
      // for studying a rule change offline
      const dump: unknown[] | undefined = process.env.JUDGEMENT_DUMP ? [] : undefined;
      for (const day of forecastOnly ? [] : evaluationDays(labels)) {
        const asOf = new Date(`${day}T06:00:00Z`);
        const result = await runAlerts({ store, config, dryRun: true, asOf, withRestatements: true, now: asOf, stdout: sink(), log: silentLogger });
        if (result.failedRules.length > 0) throw new Error(`${kind}:${seed} ${day}: ${JSON.stringify(result.failedRules)}`);
        const now = new Set<string>();
        if (dump) dump.push({ day, conditions: result.conditions.filter((c) => c.rule === 'anomaly').map((c) => ({ ...pageOf(day, c), level: c.level, details: c.details })) });
        for (const c of result.conditions) {
          now.add(c.key);
          if (!firing.has(c.key)) pages.push(pageOf(day, c));
        }
        firing = now;
        budgetNights.push({ day, level: result.conditions.find((c) => c.rule === 'budget')?.level ?? 0 });
      }
      const backTested = performance.now();
      if (dump) writeFileSync(join(process.env.JUDGEMENT_DUMP!, `${kind}-${seed}.json`), JSON.stringify({ labels, nights: dump }));

      const daily = await dailyTotals(store);
      const forecasts: ForecastPoint[] = [];
      for (const month of labels.evaluationMonths) {
        const [y, m] = month.split('-').map(Number) as [number, number];
        let actual = 0;
        for (let d = Date.UTC(y, m - 1, 1); d < Date.UTC(y, m, 1); d += DAY) actual += daily.get(dayText(d)) ?? 0;
        for (const k of FORECAST_DAYS) {
          const day = `${month}-${String(k).padStart(2, '0')}`;
          const f = await forecastAt(store, `${day}T06:00:00Z`);
          forecasts.push({
            month, dayOfMonth: k, actual,
            product: f?.forecast == null ? null : Number(f.forecast),
            low: f?.forecast_low == null ? null : Number(f.forecast_low),
            high: f?.forecast_high == null ? null : Number(f.forecast_high),
            runRate7: runRateProjection(daily, day),
            weekday28: weekdayProjection(daily, day),
          });
        }
      }
      // JUDGEMENT_NIGHTLY_FORECASTS=1 (development only): the month-end forecast of every night, for studying the
      // budget alert's policy offline
      const nightly: { day: string; forecast: number | null; low: number | null; high: number | null }[] = [];
      if (process.env.JUDGEMENT_NIGHTLY_FORECASTS === '1') {
        for (const day of evaluationDays(labels)) {
          const f = await forecastAt(store, `${day}T06:00:00Z`);
          nightly.push({ day, forecast: f?.forecast == null ? null : Number(f.forecast), low: f?.forecast_low == null ? null : Number(f.forecast_low), high: f?.forecast_high == null ? null : Number(f.forecast_high) });
        }
      }
      const anomalies = scoreAnomalies(pages, labels);
      const budget = scoreBudget(budgetNights, labels, daily);
      const runwayPages = pages.filter((p) => p.rule === 'runway').length;
      return {
        kind, seed, split: splitOf(seed), scale: labels.scale, budget: labels.budget, typicalDay: labels.typicalDay, postpaid: labels.postpaid,
        anomalies, budgetMonths: budget, forecasts, ...(nightly.length > 0 ? { nightly, daily: Object.fromEntries(daily) } : {}),
        runway: { postpaid: labels.postpaid, pages: runwayPages },
        regimes: labels.months.map((m) => ({ month: m.month, regime: m.regime })),
        seconds: { sync: (synced - started) / 1000, backTest: (backTested - synced) / 1000, total: (performance.now() - started) / 1000 },
      };
    } finally {
      await store.close();
    }
  } finally {
    await sim.close();
    // JUDGEMENT_KEEP=1 keeps the synced database for a look (development)
    if (process.env.JUDGEMENT_KEEP) process.stdout.write(`kept ${dbPath}\n`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}


export type Row = Awaited<ReturnType<typeof runScenario>>;
