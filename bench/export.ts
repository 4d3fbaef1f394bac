// npm run bench:export – `export postgres` of the large simulated account into a real PostgreSQL server (a throwaway
// cluster, test/helpers/postgres.ts, with fsync on), judged by three figures:
//
//  1. first export ÷ floor (goal ≤ 2×). The export: into an empty schema – compute the views in DuckDB, fingerprint,
//     CSV, COPY, indexes, ANALYZE, state, one commit. The floor does the same PostgreSQL work the plainest way: the same
//     rows (every mirrored table, read back from the export as CSV files beforehand) streamed with COPY FROM STDIN into
//     tables of the same columns, the same indexes built after each copy, ANALYZE, in one transaction, with the
//     export's session settings. Best of 3 each, same run, same server. The views' compute time in DuckDB, which the
//     floor does not have, is reported on its own.
//  2. re-export after a sync that changed one day (goal ≤ 2 s, and only that day rewritten in every table of cost by
//     day): the simulator's clock moves an hour within the same UTC day, gpuledger syncs, the export runs. Three such
//     rounds; judged on the slowest.
//  3. sums: per account, day and family, PostgreSQL's cost_daily equals DuckDB's to the micro-dollar after every export.
//
// The database: the large simulated account (seed 42), a one-year `gpuledger sync` (default bucket sizes) against the
// simulator in this process with quotas out of reach. Writes bench/results/export.json.
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { parseConfig } from '../src/config/load.ts';
import { parsePostgresUrl, type PostgresUrl } from '../src/config/postgres-url.ts';
import { exportPostgres, type PostgresExportSummary } from '../src/export/postgres/export-postgres.ts';
import { LOAD_SETTINGS } from '../src/export/postgres/mirror-table.ts';
import { indexesOf, MIRRORED_RELATIONS } from '../src/export/postgres/relations.ts';
import { startSimulator } from '../src/simulator/index.ts';
import { withReader } from '../src/store/shared-database.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { benchSync } from './sync-steps.ts';

const NOW = '2026-11-20T12:00:00Z';
const RUNS = 3;
const GOALS = { firstRatio: 2, reexportSeconds: 2 };
const COST_BY_DAY = ['cost_daily', 'cost_allocated', 'rpt_spend_daily', 'rpt_unit_cost', 'rpt_unit_cost_7d', 'rpt_runway_history'];
const RESULT = fileURLToPath(new URL('./results/export.json', import.meta.url));
const log = (s: string) => process.stderr.write(s + '\n');
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

async function main(): Promise<void> {
  const loadAtStart = loadavg().map((x) => round(x));
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-export-'));
  const db = join(dir, 'gpuledger.duckdb');
  const sim = await startSimulator({ seed: 42, scale: 'large', now: NOW, quotas: { minute: 1e6, hour: 1e8, day: 1e9 } });
  const server = await startPostgres({ durable: true });
  const client = await server.connect();
  try {
    const config = parseConfig({ apiUrl: sim.url, accounts: [{ name: 'bench', apiKeyEnv: 'BENCH_KEY' }], sync: { start: 'P365D' } }, 'bench');
    const sync = async () => {
      const r = await benchSync(db, config, { BENCH_KEY: 'sim-demo-key' });
      if (r.status !== 'success') throw new Error(`sync ${r.status}: ${JSON.stringify(r.errors)}`);
      return r;
    };
    log('syncing the large simulated account (one year, default bucket sizes)…');
    const built = await timed(sync);
    const target = { url: parsePostgresUrl(server.url) as PostgresUrl, passwordEnv: 'BENCH_PG_PASSWORD', schema: 'gpuledger' };
    const exportOnce = () => withReader(db, (store) => exportPostgres(store, target, { env: { BENCH_PG_PASSWORD: server.password } }));
    const sumsEqual = () => sameDailySums(db, client);

    // 1. first export, best of 3, each into an empty schema
    const firsts: { ms: number; computeMs: number; rows: number }[] = [];
    let first!: PostgresExportSummary;
    for (let i = 0; i < RUNS; i++) {
      await client.query('drop schema if exists gpuledger cascade');
      const r = await timed(exportOnce);
      first = r.value;
      firsts.push({ ms: Math.round(r.ms), computeMs: r.value.computeMs, rows: r.value.rowsWritten });
      log(`first export ${i + 1}: ${Math.round(r.ms)} ms (DuckDB views ${r.value.computeMs} ms), ${r.value.rowsWritten} rows`);
    }
    const firstSumsEqual = await sumsEqual();

    // the floor: the same rows, read back as CSV once, then in ONE transaction per table COPY FROM STDIN into a table
    // of the same columns, the same indexes built after the copy, and ANALYZE – the work the export must do in
    // PostgreSQL, done the plainest way, with the export's own session settings (mirror-table.ts). Best of 3.
    const files = new Map<string, string>();
    for (const r of MIRRORED_RELATIONS) {
      const file = join(dir, `${r.table}.csv`);
      await pipeline(client.query(copyTo(`copy gpuledger.${r.table} to stdout with (format csv)`)), createWriteStream(file));
      files.set(r.table, file);
    }
    const floors: { ms: number; copy_ms: number; indexes_ms: number; analyze_ms: number; commit_ms: number }[] = [];
    let floorRows = 0;
    for (let i = 0; i < RUNS; i++) {
      await client.query('drop schema if exists floor cascade; create schema floor');
      for (const r of MIRRORED_RELATIONS) await client.query(`create table floor.${r.table} (like gpuledger.${r.table})`);
      const phases = { copy_ms: 0, indexes_ms: 0, analyze_ms: 0, commit_ms: 0 };
      const phase = async (name: keyof typeof phases, fn: () => Promise<unknown>) => {
        const t = performance.now();
        await fn();
        phases[name] += performance.now() - t;
      };
      const r = await timed(async () => {
        let rows = 0;
        await client.query('begin');
        for (const [name, value] of Object.entries(LOAD_SETTINGS)) await client.query('select set_config($1, $2, true)', [name, value]);
        for (const relation of MIRRORED_RELATIONS) {
          const t = relation.table;
          await phase('copy_ms', async () => {
            const stream = client.query(copyFrom(`copy floor.${t} from stdin with (format csv)`));
            await pipeline(createReadStream(files.get(t)!, { highWaterMark: 1 << 20 }), stream);
            rows += stream.rowCount ?? 0;
          });
          await phase('indexes_ms', async () => {
            for (const columns of indexesOf(relation)) await client.query(`create index on floor.${t} (${columns.map((c) => `"${c}"`).join(', ')})`);
          });
          await phase('analyze_ms', () => client.query(`analyze floor.${t}`));
        }
        await phase('commit_ms', () => client.query('commit'));
        return rows;
      });
      floors.push({ ms: Math.round(r.ms), ...Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v)])) } as (typeof floors)[number]);
      floorRows = r.value;
      log(`floor ${i + 1}: ${Math.round(r.ms)} ms (COPY ${Math.round(phases.copy_ms)}, indexes ${Math.round(phases.indexes_ms)}, ANALYZE ${Math.round(phases.analyze_ms)}), ${r.value} rows`);
    }
    await client.query('drop schema floor cascade');
    const firstBest = Math.min(...firsts.map((f) => f.ms));
    const bestRun = firsts.find((f) => f.ms === firstBest)!;
    const floorBest = Math.min(...floors.map((f) => f.ms));
    const floorBestRun = floors.find((f) => f.ms === floorBest)!;

    // 2. re-exports: nothing changed, then three one-day syncs
    const unchanged = await timed(exportOnce);
    log(`re-export, nothing changed: ${Math.round(unchanged.ms)} ms`);
    const rounds: Record<string, unknown>[] = [];
    for (const hour of [13, 14, 15]) {
      sim.setNow(`2026-11-20T${hour}:00:00Z`);
      const synced = await sync();
      const r = await timed(exportOnce);
      const byTable = Object.fromEntries(Object.entries(r.value.changes).map(([t, c]) => [t, c.days === 'whole' ? 'whole' : c.days]));
      const costDays = [...new Set(COST_BY_DAY.flatMap((t) => (Array.isArray(byTable[t]) ? (byTable[t] as string[]) : [])))].sort();
      const round_ = {
        now: `2026-11-20T${hour}:00:00Z`,
        sync_records: synced.records,
        ms: Math.round(r.ms),
        compute_ms: r.value.computeMs,
        rows_written: r.value.rowsWritten,
        rows_deleted: r.value.rowsDeleted,
        cost_by_day_days_rewritten: costDays,
        only_that_day: costDays.length === 1 && costDays[0] === 'bench/2026-11-20',
        rpt_balance_daily_days_rewritten: Array.isArray(byTable.rpt_balance_daily) ? (byTable.rpt_balance_daily as string[]).length : 0,
        whole_tables_replaced: Object.entries(byTable).filter(([, d]) => d === 'whole').map(([t]) => t),
        sums_equal: await sumsEqual(),
      };
      rounds.push(round_);
      log(`re-export after the ${hour}:00 sync: ${round_.ms} ms (DuckDB views ${round_.compute_ms} ms), cost-by-day days rewritten: ${costDays.join(', ')}`);
    }
    const slowest = Math.max(...rounds.map((r) => r.ms as number));
    const median = [...rounds.map((r) => r.ms as number)].sort((a, b) => a - b)[1]!;
    const result = {
      benchmark: 'export',
      command: 'npm run bench:export',
      judged_by: {
        first:
          'first export into an empty schema ÷ floor (the same rows, as CSV, in one transaction: COPY FROM STDIN into tables of the same columns, the same indexes built after the copy, ANALYZE, with the export\'s session settings), best of 3 each, same run and server; the export\'s total includes computing the views in DuckDB, reported apart as view_compute_ms',
        reexport: 'slowest of three re-exports, each after a sync that changed one UTC day; only that day rewritten in every table of cost by day',
        sums: 'per account, day and family, PostgreSQL cost_daily = DuckDB cost_daily as exact decimal strings, after every export',
      },
      passed: firstBest / floorBest <= GOALS.firstRatio && slowest <= GOALS.reexportSeconds * 1000 && rounds.every((r) => r.only_that_day && r.sums_equal) && firstSumsEqual,
      figures: {
        first_export: {
          ratio: round(firstBest / floorBest),
          goal: `≤ ${GOALS.firstRatio}×`,
          // the views must be computed whatever the target; what the export itself adds (DuckDB overlaps part of it)
          ratio_without_view_compute: round((bestRun.ms - bestRun.computeMs) / floorBest),
                    view_compute_ms: bestRun.computeMs,
          best_ms: firstBest,
          floor_best_ms: floorBest,
          // the floor's phases, so that a ratio against a narrower floor (say, without ANALYZE) can be read off
          floor_best_phases_ms: floorBestRun,
          runs: firsts,
          floor_runs: floors, rows: first.rowsWritten, floor_rows: floorRows },
        reexport_one_day: { slowest_ms: slowest, median_ms: median, goal: `≤ ${GOALS.reexportSeconds * 1000} ms`, passed: slowest <= GOALS.reexportSeconds * 1000 && rounds.every((r) => r.only_that_day), rounds },
        reexport_unchanged_ms: Math.round(unchanged.ms),
        sums_equal: firstSumsEqual && rounds.every((r) => r.sums_equal),
      },
      dataset: {
        source: `large simulated account (seed 42, now ${NOW}), gpuledger sync of one year with the default bucket sizes`,
        sync_records: built.value.records,
        sync_ms: Math.round(built.ms),
        tables: MIRRORED_RELATIONS.length,
        rows_exported: first.rowsWritten,
      },
      // a shared 2-core machine: other work shows in the load average and in the spread of the rounds
      machine: { cpus: cpus().length, node: process.version, load_average_at_start: loadAtStart, load_average_at_end: loadavg().map((x) => round(x)) },
      measured_at: new Date().toISOString(),
    };
    mkdirSync(join(RESULT, '..'), { recursive: true });
    writeFileSync(RESULT, JSON.stringify(result, null, 2) + '\n');
    process.stdout.write(
      `first export ${firstBest} ms vs floor ${floorBest} ms = ${result.figures.first_export.ratio}× (goal ≤ ${GOALS.firstRatio}×); ` +
        `one-day re-export slowest ${slowest} ms (goal ≤ ${GOALS.reexportSeconds * 1000}); sums equal: ${result.figures.sums_equal} → ${RESULT}\n`,
    );
  } finally {
    await client.end();
    await server.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per (account, day, family): sum and count of cost_daily in DuckDB and PostgreSQL, as exact strings. */
async function sameDailySums(db: string, client: pg.Client): Promise<boolean> {
  const duck = await withReader(db, (s) => s.all(`select account, day::varchar as day, family, sum(amount)::varchar as amount, count(*)::varchar as n from cost_daily group by all`));
  const post = (await client.query(`select account, to_char(day, 'YYYY-MM-DD') as day, family, sum(amount)::text as amount, count(*)::text as n from gpuledger.cost_daily group by 1, 2, 3`)).rows;
  const key = (rows: Record<string, unknown>[]) => rows.map((r) => `${r.account} ${r.day} ${r.family} ${r.amount} ${r.n}`).sort().join('\n');
  return duck.length > 0 && key(duck) === key(post);
}

await main();
