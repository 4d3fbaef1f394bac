// npm run bench:export – `export postgres` of the large simulated account into a real PostgreSQL server (a throwaway
// cluster, test/helpers/postgres.ts, with fsync on), judged by three figures:
//
//  1. first export ÷ floor (goal ≤ 2×). The export: into an empty schema – compute the views in DuckDB, fingerprint,
//     CSV, COPY, indexes, state, one commit. The floor: the same rows (every mirrored table, read back from the export
//     as CSV files beforehand) streamed with a bare COPY FROM STDIN into unindexed tables of the same columns, in one
//     transaction. Best of 3 each, same run, same server.
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
import { resolveAccounts } from '../src/extract/accounts.ts';
import { runSync } from '../src/extract/sync.ts';
import { exportPostgres, type PostgresExportSummary } from '../src/export/postgres/export-postgres.ts';
import { MIRRORED_RELATIONS } from '../src/export/postgres/relations.ts';
import { startSimulator } from '../src/simulator/index.ts';
import { withReader, writeSessions } from '../src/store/shared-database.ts';
import { silentLogger } from '../src/util/log.ts';
import { startPostgres } from '../test/helpers/postgres.ts';

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
      const r = await runSync({ sessions: writeSessions({ dbPath: db, command: 'bench' }), config, accounts: resolveAccounts(config, config.apiUrl, { BENCH_KEY: 'sim-demo-key' }), log: silentLogger, command: 'bench' });
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

    // the floor: the same rows, read back as CSV once, then COPY FROM STDIN into unindexed tables, best of 3
    const tables = MIRRORED_RELATIONS.map((r) => r.table);
    const files = new Map<string, string>();
    for (const t of tables) {
      const file = join(dir, `${t}.csv`);
      await pipeline(client.query(copyTo(`copy gpuledger.${t} to stdout with (format csv)`)), createWriteStream(file));
      files.set(t, file);
    }
    const floors: number[] = [];
    let floorRows = 0;
    for (let i = 0; i < RUNS; i++) {
      await client.query('drop schema if exists floor cascade; create schema floor');
      for (const t of tables) await client.query(`create table floor.${t} (like gpuledger.${t})`);
      const r = await timed(async () => {
        let rows = 0;
        await client.query('begin');
        for (const t of tables) {
          const stream = client.query(copyFrom(`copy floor.${t} from stdin with (format csv)`));
          await pipeline(createReadStream(files.get(t)!, { highWaterMark: 1 << 20 }), stream);
          rows += stream.rowCount ?? 0;
        }
        await client.query('commit');
        return rows;
      });
      floors.push(Math.round(r.ms));
      floorRows = r.value;
      log(`floor ${i + 1}: ${Math.round(r.ms)} ms, ${r.value} rows`);
    }
    await client.query('drop schema floor cascade');
    const firstBest = Math.min(...firsts.map((f) => f.ms));
    const bestRun = firsts.find((f) => f.ms === firstBest)!;
    const floorBest = Math.min(...floors);

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
        first: 'first export into an empty schema ÷ floor (the same rows, as CSV, COPY FROM STDIN into unindexed tables, one transaction), best of 3 each, same run and server',
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
          view_compute_ms: bestRun.computeMs, best_ms: firstBest, floor_best_ms: floorBest, runs: firsts, floor_runs_ms: floors, rows: first.rowsWritten, floor_rows: floorRows },
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
