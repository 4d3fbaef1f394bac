// npm run bench:sync – a one-year backfill of the large simulated account, judged by four figures:
//  (1) pacing: billing+inventory requests per second achieved ÷ the quota's rate (600/min), goal ≥ 0.9, zero 429s.
//      Measured on a run with maxRecordsPerRequest lowered so the backfill needs several hundred requests – with the
//      default bound a year takes only a few dozen, too few to fill a minute window and measure pacing at all;
//  (2) requests used ÷ the planner's lower bound (Σ over source and bucket size of ⌈records ÷ bound⌉), goal ≤ 1.2,
//      on the default bound;
//  (3) load throughput: records/s of a sync with the quota out of the way ÷ DuckDB's own read_json of the same
//      records (the raw tables written to NDJSON) in the same run, goal ≥ 0.4;
//  (4) peak RSS of the process, goal < 1 GB.
// Writes bench/results/sync.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseConfig } from '../src/config/load.ts';
import type { ConfigInput } from '../src/config/schema.ts';
import { resolveAccounts } from '../src/extract/accounts.ts';
import { runSync, type SyncResult } from '../src/extract/sync.ts';
import { startSimulator } from '../src/simulator/index.ts';
import { openStore } from '../src/store/database.ts';
import { silentLogger } from '../src/util/log.ts';

const NOW = '2026-11-20T00:00:00Z';
const QUOTA_PER_MINUTE = 600;
const RESULT = fileURLToPath(new URL('./results/sync.json', import.meta.url));
const RAW_TABLES = ['aggregate', 'pods', 'serverless', 'network_volumes', 'endpoints', 'clusters'].map((t) => `raw_billing_${t}`);

interface Run {
  result: SyncResult;
  ms: number;
  perRoute: { source: string; bucket_size: string; records: number }[];
  /** Requests the simulator answered on /v2/billing routes (the rest is inventory and GraphQL). */
  billingRequests: number;
}

async function backfill(dir: string, name: string, quotas: { minute: number; hour: number; day: number }, maxRecordsPerRequest?: number): Promise<Run> {
  const sim = await startSimulator({ seed: 42, scale: 'large', now: NOW, quotas });
  const db = join(dir, `${name}.duckdb`);
  const config: ConfigInput = {
    apiUrl: sim.url,
    accounts: [{ name: 'bench', apiKeyEnv: 'GPULEDGER_BENCH_KEY', simulated: true }],
    sync: { start: 'P365D', ...(maxRecordsPerRequest ? { maxRecordsPerRequest } : {}) },
  };
  const parsed = parseConfig(config, 'bench');
  const accounts = resolveAccounts(parsed, sim.url, { GPULEDGER_BENCH_KEY: 'sim-demo-key' });
  const store = await openStore({ path: db, command: 'bench' });
  try {
    const started = performance.now();
    const result = await runSync({ store, config: parsed, accounts, log: silentLogger, command: 'bench', args: 'bench' });
    const ms = performance.now() - started;
    const perRoute = await store.all<{ source: string; bucket_size: string; records: number }>(
      `select source, bucket_size, sum(records)::bigint::double as records from _meta_loads where source <> 'inventory' group by all order by all`,
    );
    const billingRequests = Object.entries(sim.stats().byRoute)
      .filter(([route]) => route.startsWith('/v2/billing'))
      .reduce((n, [, count]) => n + (count ?? 0), 0);
    return { result, ms, perRoute, billingRequests };
  } finally {
    await store.close();
    await sim.close();
  }
}

/** DuckDB's own JSON reader on the same records: the raw tables written to NDJSON, read back into a fresh database. */
async function readJsonFloor(dir: string, db: string): Promise<{ ms: number; records: number }> {
  const source = await DuckDBInstance.create(db);
  const out = await source.connect();
  const files: string[] = [];
  for (const t of RAW_TABLES) {
    const file = join(dir, `${t}.ndjson`);
    await out.run(`copy (select * exclude (account) from ${t}) to '${file}' (format json)`);
    files.push(file);
  }
  out.closeSync();
  source.closeSync();
  const best: number[] = [];
  let records = 0;
  for (let i = 0; i < 3; i++) {
    const fresh = await DuckDBInstance.create(join(dir, `floor-${i}.duckdb`));
    const c = await fresh.connect();
    const started = performance.now();
    records = 0;
    for (const [n, f] of files.entries()) {
      await c.run(`create table t${n} as select * from read_json('${f}', format = 'newline_delimited')`);
      const r = await c.runAndReadAll(`select count(*)::double as n from t${n}`);
      records += Number(r.getRowObjectsJson()[0]!.n);
    }
    best.push(performance.now() - started);
    c.closeSync();
    fresh.closeSync();
  }
  return { ms: Math.min(...best), records };
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-sync-'));
  try {
    const unlimited = { minute: 1_000_000, hour: 10_000_000, day: 100_000_000 };
    const paced = { minute: QUOTA_PER_MINUTE, hour: 100_000, day: 1_000_000 };

    console.log('load: one-year backfill with the quota out of the way …');
    const load = await backfill(dir, 'load', unlimited);
    console.log(`  ${load.result.records} records in ${load.result.requests} requests, ${round(load.ms / 1000)} s`);
    const floor = await readJsonFloor(dir, join(dir, 'load.duckdb'));
    console.log(`  read_json floor: ${floor.records} records in ${round(floor.ms / 1000)} s`);

    const bound = parseConfig({}, 'bench').sync.maxRecordsPerRequest;
    const lowerBound = load.perRoute.reduce((n, r) => n + Math.max(1, Math.ceil(r.records / bound)), 0);
    // the bound counts billing windows only; inventory and GraphQL requests are not in it
    const billingRequests = load.billingRequests;

    const pacingBound = 5_000;
    console.log(`pacing: the same backfill at ${QUOTA_PER_MINUTE}/min with maxRecordsPerRequest ${pacingBound} …`);
    const pace = await backfill(dir, 'paced', paced, pacingBound);
    const achieved = pace.result.requests / (pace.ms / 1000);
    console.log(`  ${pace.result.requests} requests in ${round(pace.ms / 1000)} s, ${pace.result.rateLimited} × 429`);

    const rssMb = process.resourceUsage().maxRSS / 1024;
    const figures = {
      pacing_ratio: round(achieved / (QUOTA_PER_MINUTE / 60)),
      requests_over_lower_bound: round(billingRequests / lowerBound),
      load_vs_read_json: round(load.result.records / (load.ms / 1000) / (floor.records / (floor.ms / 1000))),
      peak_rss_mb: Math.round(rssMb),
    };
    const report = {
      benchmark: 'sync',
      command: 'npm run bench:sync',
      judged_by: {
        pacing_ratio: 'requests/s achieved ÷ quota rate (600/min), zero 429s – goal ≥ 0.9',
        requests_over_lower_bound: 'billing requests ÷ Σ⌈records ÷ maxRecordsPerRequest⌉ per source and bucket size – goal ≤ 1.2',
        load_vs_read_json: 'sync records/s (quota out of the way) ÷ DuckDB read_json records/s of the same records – goal ≥ 0.4',
        peak_rss_mb: 'peak RSS of the benchmark process – goal < 1024',
      },
      figures,
      passed: {
        pacing_ratio: figures.pacing_ratio >= 0.9 && pace.result.rateLimited === 0,
        requests_over_lower_bound: figures.requests_over_lower_bound <= 1.2,
        load_vs_read_json: figures.load_vs_read_json >= 0.4,
        peak_rss_mb: figures.peak_rss_mb < 1024,
      },
      runs: {
        load: { records: load.result.records, requests: load.result.requests, billing_requests: billingRequests, lower_bound: lowerBound, seconds: round(load.ms / 1000), records_per_second: Math.round(load.result.records / (load.ms / 1000)), per_route: load.perRoute },
        read_json_floor: { records: floor.records, seconds: round(floor.ms / 1000, 3), records_per_second: Math.round(floor.records / (floor.ms / 1000)) },
        paced: { max_records_per_request: pacingBound, requests: pace.result.requests, seconds: round(pace.ms / 1000), requests_per_second: round(achieved), rate_limited: pace.result.rateLimited, retries: pace.result.retries },
      },
      dataset: { simulator: `large, seed 42, now ${NOW}`, backfill: 'P365D; day buckets for every source, hour buckets for the last 14 days of pods and serverless (the default config)' },
      machine: { cpus: cpus().length, node: process.version },
    };
    writeFileSync(RESULT, JSON.stringify(report, null, 2) + '\n');
    console.log(JSON.stringify({ figures, passed: report.passed }, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
