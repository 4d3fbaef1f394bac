// bench:sync's large-file figure (issue 28 §1): the next day's sync on the large account's file – bench:views' database
// (11.8 M cost rows, 400 days of hourly buckets of every source, /work/bench-data/views.duckdb or BENCH_VIEWS_DB) –
// copied to a temp folder (the original is never written), its database side's work ÷ a plain `cp` of that file. Beside
// bench:sync's own incremental figure on a one-year file of daily buckets, it shows whether a sync costs what changed
// or what the history holds.
//
// The copy is first brought up to this build (migrations, views, the materialised tables computed in full, published)
// in a writing session of its own, as the first sync after an upgrade would: not measured. Then the simulator a day
// later (same seed, counts and anchor as bench/views-db.ts built the file from, sparse like that file), the sync with
// hourly buckets for every source (what the file holds; any other size would be a backfill), through real writing
// sessions, its steps from the sessions' own counters (sync-steps.ts).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/load.ts';
import { BILLING_SOURCES } from '../src/config/sync.ts';
import { withReader, withWriter } from '../src/store/shared-database.ts';
import { benchSync, cpFloor, snapshotSteps, stepsSince } from './sync-steps.ts';
import { COUNTS, NOW } from './views-db.ts';

const DEFAULT_SOURCE = '/work/bench-data/views.duckdb';
const KEY_ENV = 'GPULEDGER_BENCH_LARGE_KEY';
const DAY_MS = 86_400_000;
const SIMULATOR = fileURLToPath(new URL('../src/simulator/index.ts', import.meta.url));

/** The large simulator (bench/views-db.ts's account) a day after NOW, in a child process: its JSON is not this process's work. */
async function startLargeSim(): Promise<{ url: string; close(): Promise<void> }> {
  const options = { seed: 42, scale: 'large', counts: COUNTS, sparse: true, anchor: NOW, now: new Date(Date.parse(NOW) + DAY_MS).toISOString(), quotas: { minute: 1_000_000, hour: 100_000_000, day: 1_000_000_000 } };
  const script = `const { startSimulator } = await import(${JSON.stringify(SIMULATOR)}); const s = await startSimulator(${JSON.stringify(options)}); console.log('listening on ' + s.url); process.on('SIGTERM', () => s.close().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the large simulator exited (${code}) before listening`)));
  });
  return {
    url,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface LargeIncremental {
  value: number;
  goal: string;
  passed: boolean;
  measured_on: string;
  status: string;
  records: number;
  http_requests: number;
  wall_ms: number;
  bring_up_ms: number;
  database: ReturnType<typeof stepsSince>;
  cp_floor: { ms: number; bytes: number };
  fct_cost_daily_rows: number;
}

/** The figure, or null when the large file is not there (it takes minutes to build: bench:views builds it). */
export async function largeIncremental(goal: number, log: (s: string) => void): Promise<LargeIncremental | null> {
  const source = process.env.BENCH_VIEWS_DB ?? DEFAULT_SOURCE;
  if (!existsSync(source)) {
    log(`  ${source} is missing (BENCH_VIEWS_DB=path npm run bench:views builds it): the large-file figure is left out`);
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-sync-large-'));
  const dbPath = join(dir, 'large.duckdb');
  try {
    copyFileSync(source, dbPath);
    let t = performance.now();
    // brought up to this build as the first session after an upgrade would be: not what a day's sync costs
    await withWriter({ dbPath, command: 'bench' }, async () => undefined);
    const bringUpMs = performance.now() - t;
    log(`  the copy brought up to this build in ${Math.round(bringUpMs)} ms; the next day's sync…`);
    const sim = await startLargeSim();
    try {
      const hourly = Object.fromEntries(BILLING_SOURCES.map((s) => [s, [{ size: 'hour' }]]));
      const parsed = parseConfig({ apiUrl: sim.url, accounts: [{ name: 'bench', apiKeyEnv: KEY_ENV, simulated: true }], sync: { start: 'P400D', bucketSizes: hourly } }, 'bench');
      const before = snapshotSteps();
      t = performance.now();
      const result = await benchSync(dbPath, parsed, { [KEY_ENV]: 'sim-demo-key' });
      const wallMs = performance.now() - t;
      const database = stepsSince(before);
      const cp = cpFloor(dbPath);
      const dailyRows = await withReader(dbPath, async (store) => Number((await store.one<{ n: string }>('select count(*)::varchar as n from fct_cost_daily'))!.n));
      const value = database.database_work_ms / cp.ms;
      return {
        value: Math.round(value * 100) / 100,
        goal: `≤ ${goal}`,
        passed: value <= goal && result.status === 'success',
        measured_on: `a copy of ${source} (the large account, hourly buckets of every source), the next day's sync with hourly buckets for every source; database work ÷ a plain cp of the file right after (best of 3)`,
        status: result.status,
        records: result.ranges.filter((r) => r.source !== 'inventory').reduce((s, r) => s + r.records, 0),
        http_requests: result.requests,
        wall_ms: Math.round(wallMs),
        bring_up_ms: Math.round(bringUpMs),
        database,
        cp_floor: cp,
        fct_cost_daily_rows: dailyRows,
      };
    } finally {
      await sim.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node --import tsx bench/sync-large.ts`: this figure alone, printed (not written to sync.json)
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figure = await largeIncremental(2, (s) => process.stderr.write(s + '\n'));
  process.stdout.write(JSON.stringify(figure, null, 2) + '\n');
}
