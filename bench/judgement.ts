// npm run bench:judgement [-- --quick] – how good gpuledger's judgement is, on labelled scenario accounts
// (src/simulator/scenarios/, issue 36 point 1). For every scenario (6 kinds × seeds 1 and 2 – seed 2 tunes, seed 1 is
// held out and only reported; two at a time, each in its own process):
//   1. the simulator serves the scenario in-process over real HTTP on 127.0.0.1 with its clock at the scenario's end,
//      and the product's sync (runSync, what `gpuledger sync` runs, on one store held open) reads its history into a
//      fresh DuckDB file: the inventory and balance at the moments a daily read would have seen every resource, then
//      the billing backfilled at the end – day buckets, and hour buckets for the last 14 days (the defaults);
//   2. every day of the evaluation months (July–October 2026) is back-tested through runAlerts – what `gpuledger alerts
//      --dry-run --as-of <day>T06:00:00Z --with-restatements` calls – with the scenario's monthly budget (thresholds 80
//      and 100 on actual and forecast) and the default anomaly and runway rules. A dry run carries no state, so the
//      nightly cron is simulated: an alert key is paged on the first night it fires after a night it did not;
//   3. the month-end forecast is read at days 7, 14 and 21 of each evaluation month with report_clock pinned (SET
//      VARIABLE gpuledger_as_of, as `query --as-of` does): rpt_month_forecast's forecast, forecast_low and
//      forecast_high for family 'all', beside two baselines from cost_daily in the same run – month to date + the
//      mean of the last 7 complete days × the days left, and month to date + the per-weekday mean of the last 28
//      complete days for each day left – and the month's actual end from cost_daily;
//   4. scores (bench/judgement-score.ts): anomaly precision (incidents matched to a must event ÷ incidents not
//      matched to a may event), recall of must events paged within 2 days of their first day, detection delay;
//      forecast MAPE at days 7/14/21 for the product and both baselines; the share of month ends inside the range
//      (against the nominal coverage rpt_month_forecast's header claims); budget lead (crossing day − the first night
//      the alert said 100 %), whether the crossing was visible 10 days ahead (the 7-day run-rate projection made 10
//      days before it already exceeded the budget) and false budget alerts (a 100 % alert in a month that does not
//      cross); runway alerts on post-paid accounts.
// The detectors never see a scenario's labels: nothing from them reaches the config, the database or the environment
// but the budget amount – a user's own budget, as they would write it into their config. The labels are read only
// here, after the back-test, to score it.
// Writes bench/results/judgement.json (the command, the date, the seeds, per-split figures, per-scenario rows, the
// kinds with their counts, the elapsed seconds).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIO_KINDS } from '../src/simulator/scenarios/index.ts';
import { FORECAST_DAYS, runScenario, splitOf, type Row } from './judgement-scenario.ts';
import { ape, mean, median, type ForecastPoint } from './judgement-score.ts';

/** Scenarios at once, each in its own process: one per core of the 2-core machine the figures are judged on. */
const CONCURRENCY = 2;
const quick = process.argv.includes('--quick');
/** `--only KIND:SEED` runs one scenario (development; like --quick, its JSON goes to the temp folder). */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]!.split(':') : undefined;
/** `--split tuning` runs every kind at the tuning seeds only (development: the held-out seeds stay unlooked-at);
 * `--split held-out` at the held-out seeds only (to report, not to tune). */
const split = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : undefined;
if (split !== undefined && split !== 'tuning' && split !== 'held-out') throw new Error(`--split takes tuning or held-out, got ${split}`);
const SEEDS = only ? [Number(only[1])] : split === 'tuning' ? [2] : split === 'held-out' ? [1] : [1, 2];
const KINDS = only
  ? [only[0] as keyof typeof SCENARIO_KINDS]
  : quick ? (['left-on', 'spike-and-leak'] as const) : (Object.keys(SCENARIO_KINDS) as (keyof typeof SCENARIO_KINDS)[]);
/** JUDGEMENT_FORECAST_ONLY=1 skips the nightly alert back-test (development: a forecast change is scored in seconds;
 * an environment variable, so each scenario's own process sees it). */
const forecastOnly = process.env.JUDGEMENT_FORECAST_ONLY === '1';
const partial = quick || split !== undefined || forecastOnly || only !== undefined;
const root = fileURLToPath(new URL('..', import.meta.url));


/** The range's nominal coverage, as rpt_month_forecast's header claims it ("… with a 90 % range …"). */
function nominalCoverage(): number | null {
  const sql = readFileSync(join(root, 'sql/views/reports/rpt_month_forecast.sql'), 'utf8');
  const m = /(\d+(?:\.\d+)?)\s*%\s*(?:prediction\s+)?(?:range|interval)/i.exec(sql.split('\n').filter((l) => l.startsWith('--')).join(' '));
  return m ? Number(m[1]) / 100 : null;
}



const round = (x: number | null, digits = 3) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

function figures(rows: readonly Row[]) {
  const sum = (f: (r: Row) => number) => rows.reduce((n, r) => n + f(r), 0);
  const incidents = sum((r) => r.anomalies.incidents);
  const may = sum((r) => r.anomalies.matchedMay);
  const must = sum((r) => r.anomalies.matchedMust);
  const delays = rows.flatMap((r) => r.anomalies.delays.filter((d): d is number => d !== null));
  const falseByKind: Record<string, number> = {};
  for (const r of rows) for (const [k, n] of Object.entries(r.anomalies.falseByKind)) falseByKind[k] = (falseByKind[k] ?? 0) + n;
  const points = rows.flatMap((r) => r.forecasts);
  const mapeAt = (k: number, f: (p: ForecastPoint) => number | null) => {
    const errors = points.filter((p) => p.dayOfMonth === k).map((p) => ape(f(p), p.actual));
    return errors.some((e) => e === null) ? null : round(mean(errors as number[]));
  };
  const ranged = points.filter((p) => p.low !== null && p.high !== null);
  const months = rows.flatMap((r) => r.budgetMonths);
  const crossing = months.filter((m) => m.crossingDay !== null);
  const visible = crossing.filter((m) => m.visible10);
  const leads = crossing.map((m) => m.lead).filter((l): l is number => l !== null);
  const postpaid = rows.filter((r) => r.runway.postpaid);
  return {
    scenarios: rows.length,
    anomaly: {
      incidents,
      matched_must: must,
      matched_may: may,
      false_positives: incidents - must - may,
      precision: incidents - may > 0 ? round(must / (incidents - may)) : null,
      false_positives_by_non_event: falseByKind,
      must_events: sum((r) => r.anomalies.mustEvents),
      must_paged_within_2_days: sum((r) => r.anomalies.mustPaged),
      recall: sum((r) => r.anomalies.mustEvents) > 0 ? round(sum((r) => r.anomalies.mustPaged) / sum((r) => r.anomalies.mustEvents)) : null,
      delay_days_median: median(delays),
      delay_days_max: delays.length ? Math.max(...delays) : null,
    },
    forecast: {
      points: points.length,
      mape: Object.fromEntries(FORECAST_DAYS.map((k) => [`day_${k}`, {
        product: mapeAt(k, (p) => p.product),
        run_rate_7: mapeAt(k, (p) => p.runRate7),
        weekday_mean_28: mapeAt(k, (p) => p.weekday28),
      }])),
      range_coverage: ranged.length ? round(ranged.filter((p) => p.actual >= p.low! && p.actual <= p.high!).length / ranged.length) : null,
      range_points: ranged.length,
    },
    budget: {
      months: months.length,
      crossing_months: crossing.length,
      visible_10_days_ahead: visible.length,
      lead_days_median: median(leads),
      lead_days_median_where_visible: median(visible.map((m) => m.lead).filter((l): l is number => l !== null)),
      visible_with_lead_at_least_10: visible.filter((m) => m.lead !== null && m.lead >= 10).length,
      never_alerted_before_month_end: crossing.filter((m) => m.firstAlert === null).length,
      false_alerts: months.filter((m) => m.falseAlert).length,
    },
    runway: { postpaid_accounts: postpaid.length, alerts_on_postpaid: postpaid.reduce((n, r) => n + r.runway.pages, 0), note: postpaid.length === 0 ? 'no post-paid scenario in this run' : 'the config does not say post-paid: the product sees it from the balance' },
  };
}

function printSummary(split: string, f: ReturnType<typeof figures>): void {
  const a = f.anomaly;
  const fc = f.forecast;
  const b = f.budget;
  const cell = (x: unknown) => String(x ?? '–');
  const lines = [
    `${split} (${f.scenarios} scenarios)`,
    `  anomaly   precision ${cell(a.precision)} (${a.matched_must} right, ${a.false_positives} false, ${a.matched_may} on may-events, of ${a.incidents})  recall ${cell(a.recall)} (${a.must_paged_within_2_days}/${a.must_events})  delay median ${cell(a.delay_days_median)} max ${cell(a.delay_days_max)} days`,
    `            false positives by non-event: ${Object.entries(a.false_positives_by_non_event).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    `  forecast  MAPE        product  run-rate-7  weekday-28`,
    ...FORECAST_DAYS.map((k) => {
      const m = fc.mape[`day_${k}`]!;
      return `            day ${String(k).padEnd(2)}      ${cell(m.product).padEnd(8)} ${cell(m.run_rate_7).padEnd(11)} ${cell(m.weekday_mean_28)}`;
    }),
    `            range coverage ${cell(fc.range_coverage)} of ${fc.range_points} month ends`,
    `  budget    ${b.crossing_months} of ${b.months} months cross; lead median ${cell(b.lead_days_median)} days (where visible 10 days ahead: ${cell(b.lead_days_median_where_visible)}, ${b.visible_with_lead_at_least_10} of ${b.visible_10_days_ahead} with lead ≥ 10); false alerts ${b.false_alerts}`,
    `  runway    ${f.runway.alerts_on_postpaid} alerts on ${f.runway.postpaid_accounts} post-paid accounts`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** One scenario in a child process (`--row KIND:SEED --row-out FILE`), so two run at once on the two cores. */
function runChild(kind: string, seed: number, dir: string): Promise<Row> {
  const out = join(dir, `${kind}-${seed}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--row', `${kind}:${seed}`, '--row-out', out], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(readFileSync(out, 'utf8')) as Row) : reject(new Error(`${kind}:${seed} ended with exit code ${code}`))));
  });
}

function results(rows: readonly Row[], total: number, elapsed: number) {
  const splits = { tuning: figures(rows.filter((r) => r.split === 'tuning')), held_out: figures(rows.filter((r) => r.split === 'held-out')), all: figures(rows) };
  return {
    command: `npm run bench:judgement${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version, load_average_at_end: loadavg().map((x) => Math.round(x * 10) / 10) },
    elapsed_seconds: Math.round(elapsed),
    // written after every scenario, so a run stopped part-way still says what it measured, and that it is partial
    complete: rows.length === total,
    scenarios_done: `${rows.length} of ${total}`,
    seeds: { tuning: SEEDS.filter((s) => splitOf(s) === 'tuning'), held_out: SEEDS.filter((s) => splitOf(s) === 'held-out'), rule: 'even seeds tune, odd seeds are held out (reported only)' },
    scenario_kinds: Object.fromEntries(KINDS.map((k) => [k, { count: rows.filter((r) => r.kind === k).length, scale: SCENARIO_KINDS[k].scale, description: SCENARIO_KINDS[k].description }])),
    evaluation: {
      months: ['2026-07', '2026-08', '2026-09', '2026-10'],
      back_test: 'every day at 06:00 UTC through runAlerts (alerts --dry-run --as-of --with-restatements); a key is paged on the first night it fires after one it did not (the night before the first month counts as already announced)',
      inventory: 'read (with the balance) at the fewest moments that see every resource alive once, as a daily read would; billing backfilled at the end (day buckets, hour buckets for the last 14 days)',
      forecast_days: FORECAST_DAYS,
      range_nominal_coverage: nominalCoverage(),
      range_nominal_coverage_from: "rpt_month_forecast's header comment",
      look_ahead_note: 'the back-test reads the final database: where the as-of day is a day bucket (all but the last 14 days), its whole day is visible at 06:00 to the product (rpt_month_forecast counts the as-of day), while the baselines use complete days only',
      budget_lead: 'crossing day − the first night the budget alert said 100 % (forecast or actual)',
      visible_10_days_ahead: 'the 7-day run-rate projection made at 06:00 ten days before the crossing (inside its month) already exceeds the budget',
      false_budget_alert: 'a 100 % alert in a month whose spend never reaches the budget',
      precision: "incidents matched to a must event ÷ incidents not matched to a may event; matched = a driver (or, without drivers, a series) among the event's, paged from its start to firstDay + 2",
    },
    figures: splits,
    scenarios: rows.map((r) => ({ ...r, forecasts: r.forecasts.map((p) => ({ ...p, actual: round(p.actual, 2), product: round(p.product, 2), low: round(p.low, 2), high: round(p.high, 2), runRate7: round(p.runRate7, 2), weekday28: round(p.weekday28, 2) })) })),
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  // kind by kind, both seeds of a kind side by side: a run stopped part-way has both splits of the kinds it did
  const refs = KINDS.flatMap((kind) => SEEDS.map((seed) => ({ kind, seed })));
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-judgement-rows-'));
  // a partial run (--quick, --only) is for development: its figures are no result, so they stay out of the checkout
  const path = partial ? (process.env.JUDGEMENT_OUT ?? join(tmpdir(), 'gpuledger-judgement-quick.json')) : join(root, 'bench/results/judgement.json');
  const rows: Row[] = [];
  let next = 0;
  const worker = async () => {
    while (next < refs.length) {
      const { kind, seed } = refs[next++]!;
      const row = await runChild(kind, seed, dir);
      rows.push(row);
      const a = row.anomalies;
      process.stdout.write(
        `${kind}:${seed} (${row.split}) ${a.incidents} incidents, ${a.falsePositives} false, must ${a.mustPaged}/${a.mustEvents}; ` +
          `sync ${row.seconds.sync.toFixed(0)} s, back-test ${row.seconds.backTest.toFixed(0)} s (${rows.length} of ${refs.length})\n`,
      );
      const order = (r: Row) => refs.findIndex((x) => x.kind === r.kind && x.seed === r.seed);
      writeFileSync(path, `${JSON.stringify(results([...rows].sort((x, y) => order(x) - order(y)), refs.length, (performance.now() - started) / 1000), null, 2)}\n`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, refs.length) }, worker));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const out = results(rows, refs.length, (performance.now() - started) / 1000);
  printSummary('tuning seeds', out.figures.tuning);
  printSummary('held-out seeds', out.figures.held_out);
  process.stdout.write(`${rows.length} scenarios in ${out.elapsed_seconds} s; wrote ${path}\n`);
}

if (process.argv.includes('--row')) {
  const [kind, seed] = process.argv[process.argv.indexOf('--row') + 1]!.split(':') as [string, string];
  const row = await runScenario(kind, Number(seed));
  writeFileSync(process.argv[process.argv.indexOf('--row-out') + 1]!, JSON.stringify(row));
} else {
  await main();
}
