// npm run bench:sync – a one-year backfill (`sync.start` P365D, the default bucket sizes: day for every billing source
// plus hour for the last 14 days of pods and Serverless) of the large simulated account (seed 42, fixed now) through
// runSync into a fresh store, and four figures, each judged against a goal:
//
//  1. pacing: billing requests per second achieved ÷ the quota's rate (minute quota 600 = 10/s; the hour and day
//     quotas far out of reach), with zero 429s (goal ≥ 0.9). Achieved rate = billing requests ÷ (first billing request
//     issued → last billing answer received), request times from undici's diagnostics channels. The default backfill
//     needs ~20 requests, far too few to show pacing, so the judged figure comes from the same backfill with
//     sync.maxRecordsPerRequest lowered (zod min 100) until it needs well over a thousand requests: the sync alone
//     issues ~15/s and a run shorter than a few windows can spend two windows' quota in under a minute (fixed,
//     epoch-aligned windows), so the per-window counts and the ratio over windows wholly inside the run (the steady
//     state) are reported too.
//  2. requests: billing HTTP requests ÷ the lower bound Σ over (source, bucket size) of max(1, ⌈records ÷
//     maxRecordsPerRequest⌉), records counted in the raw tables after the sync (goal ≤ 1.2); judged on the default
//     backfill. For the pacing backfill, where one bucket can hold more than a request may, the reachable bound (fewest
//     windows of whole consecutive buckets) is reported as well.
//  3. load throughput: billing records per second of the sync's billing phase (first billing request → last page
//     loaded) against a simulator whose quotas never bind (HTTP + parse + validation + load, not pacing) ÷ the floor –
//     DuckDB's own `CREATE TABLE t AS SELECT * FROM read_json('file')` of the same records (the same pages fetched
//     again, their records written as NDJSON, one file per source) in a fresh file-backed DuckDB, same run, best of 3
//     (goal ≥ 0.4). The billing phase ends when runSync returns (pages are loaded after they are fetched). The sync
//     runs through real writing sessions on a database file, as `gpuledger sync`: the materialised refresh, the
//     checkpoint and the publish are in its time, and each is reported as its own figure (database_side, from the
//     sessions' own counters – sync-steps.ts). A diagnostic splits the per-record cost into its steps (client, spool,
//     load) on the same pages.
//  3b. incremental: the next day's sync on that backfill's published file (the simulator a day later, the same
//     account): the database side's work – open, loads, refresh, checkpoint, close, publish; everything but the
//     network – ÷ a plain `cp` of the database file measured right after, same run (goal ≤ 2).
//  3c. incremental on the large file: the same one-day sync on a copy of bench:views' database (11.8 M cost rows),
//     ÷ a cp of that file – whether a sync costs what changed or what the history holds (bench/sync-large.ts).
//  4. peak RSS: process.resourceUsage().maxRSS up to the end of the three backfills (goal < 1 GB); the whole run's
//     peak, floor and diagnostic included, is reported as well.
//  5. lock share: a month's backfill at a minute quota of 20 through real writing sessions on a database file – the
//     share of the sync's wall time during which the writer file was held (goal ≤ 0.2).
//  6. many accounts: ten accounts, each with its own key at the documented quota, side by side ÷ one of them alone,
//     same run (goal ≤ 1.5, zero 429s, totals per account exact) – bench/sync-accounts.ts says how.
//     `npm run bench:sync -- --accounts-only` measures this figure alone and updates it in sync.json.
//
// The simulator runs as a child process (`gpuledger simulator`), so its ledger and its JSON generation are neither
// in this process's RSS nor on its event loop – as with the real API. Writes bench/results/sync.json.
import { spawn, type ChildProcess } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { request } from 'undici';
import { parseConfig } from '../src/config/load.ts';
import type { ConfigInput } from '../src/config/schema.ts';
import { BILLING_SOURCES, type BillingSource } from '../src/config/sync.ts';
import { ApiClient } from '../src/api/index.ts';
import { createSpool } from '../src/extract/spool.ts';
import { openReader, withReader, writeSessions, writerHeld } from '../src/store/shared-database.ts';
import type { Store } from '../src/store/store.ts';
import { loadBillingPage } from '../src/extract/load-billing.ts';
import type { BucketSize } from '../src/util/buckets.ts';
import { resolveAccounts } from '../src/extract/accounts.ts';
import type { ProgressState } from '../src/extract/progress.ts';
import { BILLING_SOURCE_DEFS } from '../src/model/index.ts';
import { runSync, type SyncResult } from '../src/extract/sync.ts';
import { openStore } from '../src/store/database.ts';
import { silentLogger } from '../src/util/log.ts';
import { manyAccounts } from './sync-accounts.ts';
import { benchSync, cpFloor, snapshotSteps, stepsSince } from './sync-steps.ts';
import { largeIncremental } from './sync-large.ts';

const NOW = '2026-11-20T00:00:00Z';
const SEED = 42;
const START = 'P365D';
const KEY_ENV = 'GPULEDGER_BENCH_KEY';
const KEY = process.env[KEY_ENV] ?? 'sim-demo-key';
const PACED_QUOTAS = { minute: 600, hour: 1_000_000, day: 10_000_000 };
const FREE_QUOTAS = { minute: 1_000_000, hour: 100_000_000, day: 1_000_000_000 };
const MIN_PACING_REQUESTS = 100;
/** Lower bound of billing requests the pacing backfill is sized for. */
// sized so the quota binds: the sync alone issues ~15 requests/s, and a fixed minute window lets a short run spend
// up to two windows' quota in under a minute, so the run must span several windows (estimated from the default
// backfill's records, which overstate the smaller windows' dense grids)
const PACING_TARGET_REQUESTS = 3000;
const MAX_RECORDS_MIN = 100; // syncConfigSchema.maxRecordsPerRequest: z.number().int().min(100)
const FLOOR_RUNS = 3;
const GOALS = { pacing: 0.9, requests: 1.2, throughput: 0.4, rssMb: 1024, lockShare: 0.2, incrementalToCp: 2 };
/** The throttled sync of the lock-share figure: a month's backfill at 20 requests a minute (~20 requests, ~1 minute). */
const LOCK_QUOTA = 20;
const LOCK_START = 'P30D';
const REPO = fileURLToPath(new URL('..', import.meta.url));
const RESULT = fileURLToPath(new URL('./results/sync.json', import.meta.url));

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
const rssMb = () => round(process.resourceUsage().maxRSS / 1024, 1);
const log = (s: string) => process.stderr.write(s + '\n');

// ---- the simulator, in its own process -------------------------------------------------------------------------

interface SimProcess {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

/** A simulator child; `now` later than NOW (with the account anchored at NOW) shows the same past and the days since. */
async function startSim(quotas: { minute: number; hour: number; day: number }, now = NOW): Promise<SimProcess> {
  const args = [
    join(REPO, 'bin/gpuledger.js'), 'simulator', '--port', '0', '--scale', 'large', '--seed', String(SEED), '--now', now, '--anchor', NOW,
    '--quota-minute', String(quotas.minute), '--quota-hour', String(quotas.hour), '--quota-day', String(quotas.day),
  ];
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before listening`)));
  });
  return {
    url,
    child,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

// ---- request timings from undici's diagnostics channels --------------------------------------------------------

interface Timed {
  path: string;
  created: number;
  /** Wall clock (ms since the epoch) when issued: the simulator's quota windows are aligned to it. */
  wall: number;
  headers?: number;
  done?: number;
  status?: number;
}

const timings = new Map<object, Timed>();
let recording: Timed[] | undefined;
diagnostics.subscribe('undici:request:create', (msg) => {
  if (!recording) return;
  const { request: req } = msg as { request: { path: string } };
  const t: Timed = { path: req.path, created: performance.now(), wall: Date.now() };
  timings.set(req, t);
  recording.push(t);
});
diagnostics.subscribe('undici:request:headers', (msg) => {
  const { request: req, response } = msg as { request: object; response: { statusCode: number } };
  const t = timings.get(req);
  if (t) {
    t.headers = performance.now();
    t.status = response.statusCode;
  }
});
diagnostics.subscribe('undici:request:trailers', (msg) => {
  const { request: req } = msg as { request: object };
  const t = timings.get(req);
  if (t) {
    t.done = performance.now();
    timings.delete(req);
  }
});
diagnostics.subscribe('undici:request:error', (msg) => {
  const { request: req } = msg as { request: object };
  const t = timings.get(req);
  if (t) {
    t.done = performance.now();
    timings.delete(req);
  }
});

const BILLING_ROUTE = /^\/v2\/billing(?:\/([a-z-]+))?(?:\?|$)/;
const isBilling = (path: string) => BILLING_ROUTE.test(path);
/** The billing source a request path reads (the aggregate route is /v2/billing itself). */
const sourceOf = (path: string) => (BILLING_ROUTE.exec(path)?.[1] ?? 'aggregate').replace('networkvolumes', 'network-volumes');

// ---- one backfill --------------------------------------------------------------------------------------------------

interface Backfill {
  label: string;
  maxRecordsPerRequest: number;
  quotaPerMinute: number;
  result: SyncResult;
  wallSeconds: number;
  /** Billing HTTP requests (retries and 429s included), their status codes and timings. */
  billing: Timed[];
  /** The other HTTP requests (probe, inventory): they count against the quota too. */
  other: Timed[];
  /** Records per (source, bucket size) in the raw tables after the sync. */
  stored: Array<{ source: BillingSource; bucketSize: string; records: number; loads: number; loadRecords: number; largestPage: number; perBucket: number[] }>;
  lastLoadedAt: number;
  maxRssMbAfter: number;
  /** Through writing sessions on a database file (as `gpuledger sync`): that file, and where the database side spent its time. */
  dbPath?: string;
  steps?: ReturnType<typeof stepsSince>;
}

function config(url: string, maxRecordsPerRequest: number): ConfigInput {
  return {
    apiUrl: url,
    accounts: [{ name: 'bench', apiKeyEnv: KEY_ENV, simulated: true }],
    sync: { start: START, maxRecordsPerRequest },
  };
}

/**
 * One sync. `sessions`: through real writing sessions on a database file, published as `gpuledger sync` does (the
 * materialised refresh, the checkpoint and the publish are in its time); otherwise into a store held open.
 */
async function backfill(label: string, sim: SimProcess, quotaPerMinute: number, maxRecordsPerRequest: number, dir: string, mode: 'held' | 'sessions' = 'held'): Promise<Backfill> {
  const parsed = parseConfig(config(sim.url, maxRecordsPerRequest), 'bench');
  const dbPath = join(dir, `${label}.duckdb`);
  const held = mode === 'held' ? await openStore({ path: dbPath, command: 'bench' }) : undefined;
  const requests: Timed[] = [];
  let lastLoadedAt = 0;
  let pages = 0;
  let store: Store | undefined = held;
  try {
    recording = requests;
    const before = snapshotSteps();
    const t0 = performance.now();
    const result = await runSync({
      ...(held ? { store: held } : { sessions: writeSessions({ dbPath, command: 'bench' }) }),
      config: parsed,
      accounts: resolveAccounts(parsed, parsed.apiUrl, { [KEY_ENV]: KEY }),
      log: silentLogger,
      command: 'bench',
      progress: {
        update(_s: ProgressState) {
          if (++pages % 50 === 0) log(`  ${label}: ${pages} pages`);
        },
        done() {},
      },
    });
    // progress reports a page when it is fetched; it is loaded later (page-loader.ts), so the billing phase ends when
    // runSync returns – every page loaded, the inventory and the run record too (a little more than the billing phase)
    lastLoadedAt = performance.now();
    const wallSeconds = (lastLoadedAt - t0) / 1000;
    recording = undefined;
    const steps = held ? undefined : stepsSince(before);
    store ??= await openReader(dbPath);
    const stored: Backfill['stored'] = [];
    for (const source of BILLING_SOURCES) {
      const table = BILLING_SOURCE_DEFS[source].table;
      const rows = await store.all<{ bucket_size: string; n: string }>(`select bucket_size, count(*)::varchar n from ${table} group by 1 order by 1`);
      const loads = await store.all<{ bucket_size: string; loads: string; records: string; largest: string }>(
        `select bucket_size, count(*)::varchar loads, sum(records)::varchar records, max(records)::varchar largest from _meta_loads where source = $1 group by 1 order by 1`,
        [source],
      );
      const sizes = new Set([...rows.map((r) => r.bucket_size), ...loads.map((l) => l.bucket_size)]);
      for (const size of sizes) {
        const l = loads.find((x) => x.bucket_size === size);
        const buckets = await store.all<{ n: string }>(`select count(*)::varchar n from ${table} where bucket_size = $1 group by start_time order by start_time`, [size]);
        stored.push({
          source,
          bucketSize: size,
          records: Number(rows.find((r) => r.bucket_size === size)?.n ?? 0),
          loads: Number(l?.loads ?? 0),
          loadRecords: Number(l?.records ?? 0),
          largestPage: Number(l?.largest ?? 0),
          perBucket: buckets.map((x) => Number(x.n)),
        });
      }
    }
    const billing = requests.filter((r) => isBilling(r.path));
    return {
      label, maxRecordsPerRequest, quotaPerMinute, result, wallSeconds, billing, other: requests.filter((r) => !isBilling(r.path)),
      stored, lastLoadedAt, maxRssMbAfter: rssMb(), ...(held ? {} : { dbPath, steps }),
    };
  } finally {
    recording = undefined;
    await store?.close();
  }
}

function lowerBound(stored: Backfill['stored'], max: number): number {
  return stored.reduce((s, r) => s + Math.max(1, Math.ceil(r.records / max)), 0);
}

/** Total time during which at least one of the requests was in flight (the sync pipelines its next request). */
function inFlightMs(reqs: readonly Timed[]): number {
  const spans = reqs.filter((r) => r.done !== undefined).map((r) => [r.created, r.done!] as const).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let [s, e] = [-Infinity, -Infinity];
  for (const [a, b] of spans) {
    if (a > e) {
      if (e > s) total += e - s;
      [s, e] = [a, b];
    } else if (b > e) e = b;
  }
  if (e > s) total += e - s;
  return total;
}

function pacing(b: Backfill) {
  const reqs = b.billing;
  const first = reqs[0]!.created;
  const lastIssued = reqs[reqs.length - 1]!.created;
  const lastAnswered = Math.max(...reqs.map((r) => r.done ?? r.headers ?? r.created));
  const quotaRate = b.quotaPerMinute / 60;
  const spanSeconds = (lastAnswered - first) / 1000;
  const achieved = reqs.length / spanSeconds;
  const issueRate = reqs.length > 1 ? (reqs.length - 1) / ((lastIssued - first) / 1000) : NaN;
  const status429 = reqs.filter((r) => r.status === 429).length;
  // billing requests per quota window (the simulator's minute windows are aligned to the epoch, as the contract says);
  // every request of the sync counts against the quota, the inventory's too
  const all = [...b.billing, ...b.other].sort((x, y) => x.wall - y.wall);
  const byMinute = new Map<number, { billing: number; all: number }>();
  for (const r of all) {
    const m = Math.floor(r.wall / 60_000);
    const w = byMinute.get(m) ?? { billing: 0, all: 0 };
    w.all++;
    if (isBilling(r.path)) w.billing++;
    byMinute.set(m, w);
  }
  const minutes = [...byMinute.entries()].sort((x, y) => x[0] - y[0]);
  // windows wholly inside the billing span: the steady state, free of the first and last partial windows
  const firstWall = reqs[0]!.wall;
  const lastWall = reqs[reqs.length - 1]!.wall;
  const inner = minutes.filter(([m]) => m * 60_000 >= firstWall && (m + 1) * 60_000 <= lastWall);
  const innerRate = inner.length ? inner.reduce((s, [, w]) => s + w.billing, 0) / (inner.length * 60) : null;
  const server = reqs.filter((r) => r.headers !== undefined).map((r) => r.headers! - r.created);
  const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length, 1) : null);
  return {
    billing_requests: reqs.length,
    span_seconds: round(spanSeconds, 2),
    achieved_per_second: round(achieved, 3),
    issue_rate_per_second: round(issueRate, 3),
    quota_per_second: round(quotaRate, 3),
    ratio: round(achieved / quotaRate, 3),
    answers_429: status429,
    rate_limited_reported: b.result.rateLimited,
    fills_a_minute: spanSeconds >= 60,
    requests_per_minute_window: minutes.map(([m, w]) => ({ window_start: new Date(m * 60_000).toISOString(), billing: w.billing, all: w.all })),
    most_in_one_window: Math.max(...minutes.map(([, w]) => w.all)),
    full_windows: inner.length,
    full_windows_ratio: innerRate === null ? null : round(innerRate / quotaRate, 3),
    server_ms_mean: mean(server),
  };
}

/** Fewest windows of consecutive buckets, each holding at most max records (greedy is optimal for this): what any planner needs when one bucket can't be split. */
function packedBound(perBucket: readonly number[], max: number): number {
  let n = 0;
  let fill = Infinity;
  for (const k of perBucket) {
    if (fill + k > max) {
      n++;
      fill = k;
    } else fill += k;
  }
  return Math.max(1, n);
}

function summary(b: Backfill) {
  const bound = lowerBound(b.stored, b.maxRecordsPerRequest);
  const packed = b.stored.reduce((s, r) => s + packedBound(r.perBucket, b.maxRecordsPerRequest), 0);
  const pages = b.result.ranges.filter((r) => r.source !== 'inventory').reduce((s, r) => s + r.requests, 0);
  return {
    max_records_per_request: b.maxRecordsPerRequest,
    quota_per_minute: b.quotaPerMinute,
    status: b.result.status,
    errors: b.result.errors,
    wall_seconds: round(b.wallSeconds, 2),
    records: b.result.records,
    bytes: b.result.bytes,
    http_requests_total: b.result.requests,
    retries: b.result.retries,
    rate_limited: b.result.rateLimited,
    billing_http_requests: b.billing.length,
    billing_pages_loaded: pages,
    other_http_requests: b.other.length,
    lower_bound: bound,
    requests_ratio: round(b.billing.length / bound, 3),
    packed_lower_bound: packed,
    requests_ratio_to_packed_bound: round(b.billing.length / packed, 3),
    pages_over_max_records: b.stored.filter((x) => x.largestPage > b.maxRecordsPerRequest).map((x) => `${x.source} ${x.bucketSize}: ${x.largestPage}`),
    per_source: b.stored.map((s) => ({
      source: s.source,
      bucket_size: s.bucketSize,
      records: s.records,
      requests: b.result.ranges.find((r) => r.source === s.source && r.bucketSize === s.bucketSize)?.requests ?? null,
      lower_bound: Math.max(1, Math.ceil(s.records / b.maxRecordsPerRequest)),
      packed_lower_bound: packedBound(s.perBucket, b.maxRecordsPerRequest),
      buckets: s.perBucket.length,
      most_records_in_one_bucket: Math.max(0, ...s.perBucket),
      largest_page: s.largestPage,
      loads: s.loads,
      load_records: s.loadRecords,
    })),
    max_rss_mb_after: b.maxRssMbAfter,
  };
}

/** The smallest multiple of 10 (≥ the schema's minimum) whose lower bound is at most the target. */
function pacingMax(stored: Backfill['stored']): number {
  for (let max = MAX_RECORDS_MIN; ; max += 10) if (lowerBound(stored, max) <= PACING_TARGET_REQUESTS) return max;
}

// ---- the floor: DuckDB's read_json of the same records ----------------------------------------------------------

async function writeNdjson(sim: SimProcess, paths: string[], dir: string) {
  const files: Record<string, { path: string; records: number; bytes: number }> = {};
  const ms = { http: 0, json_parse: 0 };
  const streams = new Map<string, ReturnType<typeof createWriteStream>>();
  for (const path of paths) {
    const source = sourceOf(path);
    let t = performance.now();
    const res = await request(sim.url + path, { headers: { authorization: `Bearer ${KEY}`, accept: 'application/json' } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${res.statusCode}`);
    ms.http += performance.now() - t;
    t = performance.now();
    const body = JSON.parse(text) as { records: unknown[] };
    ms.json_parse += performance.now() - t;
    let file = files[source];
    if (!file) {
      file = files[source] = { path: join(dir, `${source}.ndjson`), records: 0, bytes: 0 };
      streams.set(source, createWriteStream(file.path));
    }
    const out = streams.get(source)!;
    let chunk = '';
    for (const r of body.records) chunk += JSON.stringify(r) + '\n';
    file.records += body.records.length;
    file.bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await Promise.all([...streams.values()].map((s) => new Promise<void>((resolve) => s.end(() => resolve()))));
  return { files, ms };
}

/**
 * The sync's per-page steps one after the other, without pipelining, on the same pages: the client's billing() (HTTP,
 * the body split into the records' bytes and the parsed metadata), the spool write, and loadBillingPage (read_json into
 * the staging table, the SQL checks, then the compare/replace transaction) into a fresh store. Diagnostic only.
 */
async function stageSplit(sim: SimProcess, paths: string[], dir: string) {
  const store = await openStore({ path: join(dir, 'split.duckdb'), command: 'bench' });
  const client = new ApiClient({ baseUrl: sim.url, apiKey: KEY, apiKeyEnv: KEY_ENV, initialRatePerSecond: 1000 });
  const spool = createSpool();
  const ms = { client_billing: 0, spool_write: 0, load_billing_page: 0 };
  let records = 0;
  try {
    for (const path of paths) {
      const source = sourceOf(path) as BillingSource;
      const q = new URL(path, sim.url).searchParams;
      const size = q.get('bucketSize') as BucketSize;
      let t = performance.now();
      const { recordsJson, ...page } = await client.billing(source, { startTime: new Date(q.get('startTime')!), endTime: new Date(q.get('endTime')!), bucketSize: size });
      ms.client_billing += performance.now() - t;
      t = performance.now();
      const file = await spool.write(recordsJson);
      ms.spool_write += performance.now() - t;
      t = performance.now();
      await loadBillingPage(
        { store, runId: 'bench', account: 'bench', def: BILLING_SOURCE_DEFS[source], bucketSize: size, serverNow: new Date(NOW), completeThrough: new Date(NOW), lastOfRange: false },
        { ...page, file },
        Object.values(BILLING_SOURCE_DEFS),
      );
      ms.load_billing_page += performance.now() - t;
      spool.release(file);
      records += page.recordCount;
    }
  } finally {
    spool.remove();
    await client.close();
    await store.close();
  }
  return { ms, records };
}

/**
 * The lock share: a sync throttled by the API's quota (minute quota LOCK_QUOTA against the simulator child), through
 * real writing sessions on a database file as `gpuledger sync` runs it – the share of its wall time during which the
 * writer file was held (writerHeld: every session, from the lock taken to the copy published and the lock released).
 */
async function lockShare(dir: string) {
  const sim = await startSim({ minute: LOCK_QUOTA, hour: 1_000_000, day: 10_000_000 });
  try {
    const parsed = parseConfig({ ...config(sim.url, 50_000), sync: { start: LOCK_START, maxRecordsPerRequest: 50_000 } }, 'bench');
    const dbPath = join(dir, 'lock-share.duckdb');
    const held0 = { ...writerHeld };
    const requests: Timed[] = [];
    recording = requests;
    const t0 = performance.now();
    const result = await benchSync(dbPath, parsed, { [KEY_ENV]: KEY });
    const wallMs = performance.now() - t0;
    recording = undefined;
    const heldMs = writerHeld.ms - held0.ms;
    return {
      value: round(heldMs / wallMs, 3),
      wall_seconds: round(wallMs / 1000, 1),
      writer_held_seconds: round(heldMs / 1000, 2),
      writing_sessions: writerHeld.sessions - held0.sessions,
      http_requests: result.requests,
      billing_requests: requests.filter((r) => isBilling(r.path)).length,
      rate_limited: result.rateLimited,
      records: result.records,
      status: result.status,
    };
  } finally {
    recording = undefined;
    await sim.close();
  }
}

/**
 * A one-day incremental sync after the backfill: the simulator a day later (same account, anchored at NOW), the same
 * config, on backfill C's published file, through real writing sessions. Judged: the database side's work (every
 * writing session's time, less the loader's idle waits for pages: open, loads, refresh, checkpoint, publish – all but
 * the network) ÷ a plain `cp` of the database file, measured right after in the same run.
 */
async function incrementalSync(dbPath: string) {
  const sim = await startSim(FREE_QUOTAS, new Date(Date.parse(NOW) + 86_400_000).toISOString());
  try {
    const parsed = parseConfig(config(sim.url, 50_000), 'bench');
    const requests: Timed[] = [];
    recording = requests;
    const before = snapshotSteps();
    const t0 = performance.now();
    const result = await benchSync(dbPath, parsed, { [KEY_ENV]: KEY });
    const wallMs = performance.now() - t0;
    recording = undefined;
    const database = stepsSince(before);
    const cp = cpFloor(dbPath);
    const refreshed = await withReader(dbPath, (store) =>
      store.all<{ name: string; rows: string }>(`select name, row_count::varchar as rows from _meta_materialized order by name`),
    );
    const billingRecords = result.ranges.filter((r) => r.source !== 'inventory').reduce((s, r) => s + r.records, 0);
    const value = database.database_work_ms / cp.ms;
    return {
      value: round(value, 2),
      goal: `≤ ${GOALS.incrementalToCp}`,
      passed: value <= GOALS.incrementalToCp && result.status === 'success',
      status: result.status,
      records: billingRecords,
      http_requests: result.requests,
      wall_ms: Math.round(wallMs),
      some_request_in_flight_ms: Math.round(inFlightMs(requests)),
      wall_less_in_flight_ms: Math.round(wallMs - inFlightMs(requests)),
      database,
      cp_floor: cp,
      materialized_rows_after: Object.fromEntries(refreshed.map((r) => [r.name, Number(r.rows)])),
    };
  } finally {
    recording = undefined;
    await sim.close();
  }
}

async function readJsonFloor(files: Record<string, { path: string; records: number }>, dir: string, runs: number) {
  let best = Infinity;
  let loaded = 0;
  for (let run = 0; run < runs; run++) {
    const path = join(dir, `floor-${run}.duckdb`);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    let ms = 0;
    loaded = 0;
    try {
      for (const [source, f] of Object.entries(files)) {
        const t = performance.now();
        await connection.run(`create table "${source}" as select * from read_json('${f.path}')`);
        ms += performance.now() - t;
        const n = (await connection.runAndReadAll(`select count(*)::integer from "${source}"`)).getRows()[0]![0] as number;
        loaded += n;
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
      rmSync(path, { force: true });
      rmSync(path + '.wal', { force: true });
    }
    best = Math.min(best, ms);
  }
  return { ms: round(best, 1), records: loaded };
}

// ---- main ----------------------------------------------------------------------------------------------------------

/** Only the many-accounts figure, written into the existing sync.json beside the others (each says when it was measured). */
async function accountsOnly(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-sync-'));
  try {
    const figure = { ...(await manyAccounts(dir, log)), measured_at: new Date().toISOString(), command: 'npm run bench:sync -- --accounts-only' };
    const result = JSON.parse(readFileSync(RESULT, 'utf8')) as { passed: boolean; figures: Record<string, { passed: boolean }> };
    result.figures.many_accounts = figure;
    result.passed = Object.values(result.figures).every((f) => f.passed);
    writeFileSync(RESULT, JSON.stringify(result, null, 2) + '\n');
    process.stdout.write(`many accounts  ${figure.value} × one account alone (${figure.ten_accounts.seconds} s vs ${figure.one_account.seconds} s, ${figure.ten_accounts.rate_limited} × 429, totals ${figure.totals.exact ? 'exact' : 'DIFFER'}; goal ≤ 1.5) ${figure.passed ? 'ok' : 'MISSED'}\n→ ${RESULT}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-sync-'));
  const started = Date.now();
  const loadAtStart = loadavg().map((x) => round(x, 2));
  try {
    // phase A: the default backfill, paced by the quota
    log(`backfill A: default maxRecordsPerRequest, quota ${PACED_QUOTAS.minute}/minute…`);
    let sim = await startSim(PACED_QUOTAS);
    let a: Backfill;
    try {
      a = await backfill('default-paced', sim, PACED_QUOTAS.minute, parseConfig(config(sim.url, 50_000), 'bench').sync.maxRecordsPerRequest, dir);
    } finally {
      await sim.close();
    }
    log(`  ${a.billing.length} billing requests, ${a.result.records} records, ${round(a.wallSeconds, 1)} s, ${a.result.rateLimited} × 429`);

    // phase B: the same backfill cut into ~500 requests, when A is too short to show pacing
    let b: Backfill | undefined;
    if (a.billing.length < MIN_PACING_REQUESTS) {
      const max = pacingMax(a.stored);
      log(`backfill B: maxRecordsPerRequest ${max} (lower bound ${lowerBound(a.stored, max)} requests), quota ${PACED_QUOTAS.minute}/minute…`);
      sim = await startSim(PACED_QUOTAS);
      try {
        b = await backfill('pacing', sim, PACED_QUOTAS.minute, max, dir);
      } finally {
        await sim.close();
      }
      log(`  ${b.billing.length} billing requests, ${round(b.wallSeconds, 1)} s, ${b.result.rateLimited} × 429`);
    }

    // phase C: the default backfill with quotas that never bind (HTTP + parse + load), then the floor on its pages
    log(`backfill C: default maxRecordsPerRequest, quotas out of reach…`);
    sim = await startSim(FREE_QUOTAS);
    let c: Backfill;
    let floor: Awaited<ReturnType<typeof readJsonFloor>>;
    let ndjson: Awaited<ReturnType<typeof writeNdjson>>;
    let split: Awaited<ReturnType<typeof stageSplit>>;
    let syncPeakRss: number;
    try {
      c = await backfill('default-unpaced', sim, FREE_QUOTAS.minute, a.maxRecordsPerRequest, dir, 'sessions');
      syncPeakRss = rssMb();
      log(`  ${c.billing.length} billing requests, ${c.result.records} records, ${round(c.wallSeconds, 1)} s`);
      log(`floor: the same ${c.billing.filter((r) => r.status === 200).length} pages as NDJSON, read_json in a fresh DuckDB, best of ${FLOOR_RUNS}…`);
      const pagePaths = c.billing.filter((r) => r.status === 200).map((r) => r.path);
      ndjson = await writeNdjson(sim, pagePaths, dir);
      log(`diagnostic: the same pages through ApiClient.billing, the spool and loadBillingPage, one step at a time…`);
      split = await stageSplit(sim, pagePaths, dir);
    } finally {
      await sim.close();
    }
    floor = await readJsonFloor(ndjson.files, dir, FLOOR_RUNS);

    // phase C′: the next day's sync on the backfilled file, against the cp of that file
    log(`incremental: the next day's sync on backfill C's database file…`);
    const incremental = await incrementalSync(c.dbPath!);
    log(`  ${incremental.records} records, database work ${incremental.database.database_work_ms} ms, cp ${incremental.cp_floor.ms} ms`);
    log(`incremental on the large file: a copy of bench:views' database, the next day's sync…`);
    const large = await largeIncremental(GOALS.incrementalToCp, log);
    if (large) log(`  ${large.records} records, database work ${large.database.database_work_ms} ms, cp ${large.cp_floor.ms} ms`);

    // phase D: a throttled sync through real writing sessions, for the share of its time the writer file is held
    log(`lock share: a ${LOCK_START} backfill at ${LOCK_QUOTA} requests/minute through writing sessions on a file…`);
    const lock = await lockShare(dir);
    log(`  ${lock.http_requests} requests, ${lock.wall_seconds} s, writer held ${lock.writer_held_seconds} s in ${lock.writing_sessions} sessions`);

    // phase E: ten accounts side by side against one alone
    const accounts = await manyAccounts(dir, log);

    // figures
    const pacingRun = b ?? a;
    const pace = pacing(pacingRun);
    const paceDefault = pacing(a);
    const zero429 = pacingRun.result.rateLimited === 0 && pace.answers_429 === 0 && a.result.rateLimited === 0;
    const runs = [a, ...(b ? [b] : []), c].map((x) => ({ label: x.label, ...summary(x) }));
    const reqA = runs[0]!;
    const reqB = b ? runs[1]! : undefined;
    const cBilling = c.billing;
    const syncSeconds = (c.lastLoadedAt - cBilling[0]!.created) / 1000;
    // result.records also counts the inventory's documents: only the billing records are the load's
    const billingRecords = c.result.ranges.filter((r) => r.source !== 'inventory').reduce((s, r) => s + r.records, 0);
    const syncRate = billingRecords / syncSeconds;
    const floorRate = floor.records / (floor.ms / 1000);
    const throughputRatio = syncRate / floorRate;
    const endRss = rssMb();

    const result = {
      benchmark: 'sync',
      command: 'npm run bench:sync',
      judged_by: {
        pacing: `billing requests ÷ (first billing request issued → last billing answer received), ÷ the quota's rate (${PACED_QUOTAS.minute}/minute); zero 429s required`,
        requests: 'billing HTTP requests ÷ Σ over (source, bucket size) of max(1, ⌈records ÷ maxRecordsPerRequest⌉), records counted in the raw tables after the sync; the default backfill (maxRecordsPerRequest 50000) is judged',
        throughput: "records ÷ seconds of the sync's billing phase (first billing request → runSync returned: every page loaded, the materialised tables refreshed, checkpointed and published – through writing sessions on a database file, as gpuledger sync) with quotas out of reach, ÷ DuckDB read_json of the same records (NDJSON, one file per source, fresh file-backed DuckDB, best of 3)",
        incremental: "the next day's sync after backfill C, on its published file: the database side's work (writing sessions' time less the loader's idle waits for pages – open, loads, refresh, checkpoint, close, publish; all but the network) ÷ a plain cp of the database file right after (best of 3, same run)",
        incremental_large: "the same on a copy of bench:views' large file (hourly buckets of every source, 11.8 M cost rows), brought up to this build first (not measured): database work ÷ a plain cp of that file (bench/sync-large.ts)",
        lock_share: `share of a throttled sync's wall time (minute quota ${LOCK_QUOTA}) during which the writer file was held`,
        peak_rss: 'process.resourceUsage().maxRSS after the three backfills (before the floor ran in this process)',
      },
      passed: false,
      figures: {
        pacing: {
          value: pace.ratio,
          goal: `≥ ${GOALS.pacing}, zero 429s`,
          passed: pace.ratio >= GOALS.pacing && zero429,
          measured_on: b
            ? `backfill B: the default backfill needs only ${a.billing.length} billing requests (< ${MIN_PACING_REQUESTS}), so the same backfill with sync.maxRecordsPerRequest ${b.maxRecordsPerRequest} (${b.billing.length} requests) is the pacing figure`
            : `the default backfill (${a.billing.length} billing requests)`,
          ...pace,
          default_backfill: paceDefault,
        },
        requests: {
          value: reqA.requests_ratio,
          goal: `≤ ${GOALS.requests}`,
          passed: reqA.requests_ratio <= GOALS.requests,
          measured_on: `the default backfill: ${reqA.billing_http_requests} billing requests, lower bound ${reqA.lower_bound}`,
          per_source: reqA.per_source.map((x) => ({ source: x.source, bucket_size: x.bucket_size, records: x.records, requests: x.requests, lower_bound: x.lower_bound, largest_page: x.largest_page })),
          pages_over_max_records: reqA.pages_over_max_records,
          pacing_backfill: reqB
            ? {
                note: `at maxRecordsPerRequest ${reqB.max_records_per_request} one bucket can hold more records than fit a request, so ⌈records ÷ max⌉ is not reachable; packed_lower_bound is the fewest windows of whole consecutive buckets each ≤ max (greedy over the stored per-bucket counts)`,
                requests: reqB.billing_http_requests,
                lower_bound: reqB.lower_bound,
                ratio: reqB.requests_ratio,
                packed_lower_bound: reqB.packed_lower_bound,
                ratio_to_packed_bound: reqB.requests_ratio_to_packed_bound,
                passed: reqB.requests_ratio <= GOALS.requests,
              }
            : null,
          by_backfill: Object.fromEntries(runs.map((r) => [r.label, { requests: r.billing_http_requests, lower_bound: r.lower_bound, ratio: r.requests_ratio, packed_lower_bound: r.packed_lower_bound, max_records_per_request: r.max_records_per_request }])),
        },
        throughput: {
          value: round(throughputRatio, 3),
          goal: `≥ ${GOALS.throughput}`,
          passed: throughputRatio >= GOALS.throughput,
          sync_records: billingRecords,
          sync_billing_seconds: round(syncSeconds, 2),
          sync_records_per_second: Math.round(syncRate),
          sync_wall_seconds_with_inventory: round(c.wallSeconds, 2),
          floor_records: floor.records,
          floor_ms: floor.ms,
          floor_records_per_second: Math.round(floorRate),
          floor_files: Object.fromEntries(Object.entries(ndjson.files).map(([k, f]) => [k, { records: f.records, bytes: f.bytes }])),
          database_side: c.steps,
          sync_time_split: (() => {
            // the sync pipelines its next request while a page loads: the time with no billing request in flight is
            // the client's alone (parse, validation, conversion, load), the rest overlaps with the simulator's work
            const flying = inFlightMs(cBilling);
            const us = (x: number, n: number) => round((x * 1000) / n, 2);
            return {
              billing_window_ms: Math.round(syncSeconds * 1000),
              some_request_in_flight_ms: Math.round(flying),
              no_request_in_flight_ms: Math.round(syncSeconds * 1000 - flying),
              requests: cBilling.length,
              note: 'stage split below: the same pages one step at a time, no pipelining (µs per record)',
              stages_us_per_record: {
                http_text: us(ndjson.ms.http, floor.records),
                json_parse_not_on_the_sync_path: us(ndjson.ms.json_parse, floor.records),
                client_billing_total: us(split.ms.client_billing, split.records),
                client_split_and_metadata_estimate: us(split.ms.client_billing - ndjson.ms.http, split.records),
                spool_write: us(split.ms.spool_write, split.records),
                load_billing_page: us(split.ms.load_billing_page, split.records),
                sync_end_to_end: us(syncSeconds * 1000, billingRecords),
                read_json_floor: us(floor.ms, floor.records),
              },
            };
          })(),
        },
        incremental,
        ...(large ? { incremental_large: large } : {}),
        lock_share: {
          ...lock,
          goal: `≤ ${GOALS.lockShare}`,
          passed: lock.value <= GOALS.lockShare && lock.status === 'success',
          measured_on: `a ${LOCK_START} backfill (default sources and bucket sizes) at a minute quota of ${LOCK_QUOTA}, through writing sessions on a database file (publishing as gpuledger sync does); writer held = writerHeld in shared-database.ts (lock taken → checkpoint, close, publish, lock released), summed over sessions, ÷ runSync's wall time`,
        },
        many_accounts: accounts,
        peak_rss: {
          value_mb: syncPeakRss,
          goal: `< ${GOALS.rssMb} MB`,
          passed: syncPeakRss < GOALS.rssMb,
          after_backfill_mb: Object.fromEntries(runs.map((r) => [r.label, r.max_rss_mb_after])),
          whole_run_mb: endRss,
        },
      },
      dataset: {
        source: `large simulator (seed ${SEED}, 1000 pods, 100 endpoints, 200 volumes, 400 days of history, dense grid, now ${NOW}) in a child process`,
        sync: `sync.start ${START}, default bucket sizes (day for every billing source, hour for the last 14 days of pods and serverless), lookbackBuckets 3, fresh store per backfill`,
        billing_records: billingRecords,
        inventory_documents: c.result.records - billingRecords,
        bytes: c.result.bytes,
        per_source: summary(c).per_source.map((s) => ({ source: s.source, bucket_size: s.bucket_size, records: s.records })),
      },
      backfills: runs,
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, memory_gb: round(totalmem() / 2 ** 30, 1), platform: `${platform()} ${release()}`, node: process.version, load_average_at_start: loadAtStart, load_average_at_end: loadavg().map((x) => round(x, 2)) },
      total_seconds: round((Date.now() - started) / 1000, 1),
      measured_at: new Date().toISOString(),
    };
    result.passed = Object.values(result.figures).every((f) => f.passed);
    mkdirSync(join(RESULT, '..'), { recursive: true });
    writeFileSync(RESULT, JSON.stringify(result, null, 2) + '\n');
    const f = result.figures;
    process.stdout.write(
      [
        `pacing      ${f.pacing.value} of the quota's rate (${f.pacing.achieved_per_second}/s of ${f.pacing.quota_per_second}/s over ${f.pacing.billing_requests} requests, ${f.pacing.answers_429} × 429; goal ≥ ${GOALS.pacing}) ${f.pacing.passed ? 'ok' : 'MISSED'}`,
        `requests    ${f.requests.value} × the lower bound (${f.requests.measured_on}; goal ≤ ${GOALS.requests}) ${f.requests.passed ? 'ok' : 'MISSED'}`,
        `throughput  ${f.throughput.value} of read_json (${f.throughput.sync_records_per_second} vs ${f.throughput.floor_records_per_second} records/s; goal ≥ ${GOALS.throughput}) ${f.throughput.passed ? 'ok' : 'MISSED'}`,
        `incremental ${f.incremental.value} × a cp of the database file (database work ${f.incremental.database.database_work_ms} ms vs cp ${f.incremental.cp_floor.ms} ms of ${f.incremental.cp_floor.bytes} bytes; goal ≤ ${GOALS.incrementalToCp}) ${f.incremental.passed ? 'ok' : 'MISSED'}`,
        ...(large ? [`incr. large ${large.value} × a cp of the large file (database work ${large.database.database_work_ms} ms vs cp ${large.cp_floor.ms} ms of ${large.cp_floor.bytes} bytes; goal ≤ ${GOALS.incrementalToCp}) ${large.passed ? 'ok' : 'MISSED'}`] : []),
        `lock share  ${f.lock_share.value} of a throttled sync's wall time (${f.lock_share.writer_held_seconds} s of ${f.lock_share.wall_seconds} s; goal ≤ ${GOALS.lockShare}) ${f.lock_share.passed ? 'ok' : 'MISSED'}`,
        `accounts    ${f.many_accounts.value} × one account alone (${f.many_accounts.ten_accounts.seconds} s vs ${f.many_accounts.one_account.seconds} s, ${f.many_accounts.ten_accounts.rate_limited} × 429, totals ${f.many_accounts.totals.exact ? 'exact' : 'DIFFER'}; goal ≤ 1.5) ${f.many_accounts.passed ? 'ok' : 'MISSED'}`,
        `peak RSS    ${f.peak_rss.value_mb} MB (goal < ${GOALS.rssMb} MB) ${f.peak_rss.passed ? 'ok' : 'MISSED'}`,
        `→ ${RESULT}`,
      ].join('\n') + '\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await (process.argv.includes('--accounts-only') ? accountsOnly() : main());
