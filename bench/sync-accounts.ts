// The many-accounts case of bench:sync (issue 21 §1): ten simulated accounts, each behind its own key and the
// documented quota (60 requests a minute, billing-api-v2.md §5), synced side by side through real writing sessions on
// a database file, against one of those accounts synced alone in the same run (the floor). Goal: ten take ≤ 1.5× the
// time of one, with zero 429s and every account's stored money equal to its own ledger to the micro-dollar.
//
// Each account is sized so the quota binds: a month of the default sources at sync.maxRecordsPerRequest 100 (the
// schema's minimum) is ~75 requests, more than one minute window holds, so one account alone takes a little over a
// minute and the figure says whether ten accounts wait on their own quotas (as they should) or on each other. Both
// runs start just after a minute boundary, because the simulator's windows are fixed and aligned to the epoch.
// The simulator serving the requests runs as a child process (`gpuledger simulator --account KEY=SEED …`) so its JSON
// generation is not on this process's event loop, as with the real API; the ground truth comes from an in-process
// simulator built from the same seeds and the same fixed now (same seed + same now ⇒ the same ledger), never serving.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/load.ts';
import { BILLING_SOURCES, type BillingSource } from '../src/config/sync.ts';
import { BILLING_SOURCE_DEFS } from '../src/model/index.ts';
import { startSimulator, type Simulator } from '../src/simulator/index.ts';
import { openStore } from '../src/store/database.ts';
import { writerHeld } from '../src/store/shared-database.ts';
import { decimalStringToMicros } from '../src/util/decimal.ts';
import { benchSync } from './sync-steps.ts';

const ACCOUNTS = 10;
const NOW = '2026-11-20T00:00:00Z';
const START = 'P30D';
const MAX_RECORDS = 100;
const GOAL = 1.5;
const REPO = fileURLToPath(new URL('..', import.meta.url));
const keyOf = (i: number) => `bench-team-${i}-key`;
const envOf = (i: number) => `GPULEDGER_BENCH_KEY_${i}`;
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

async function startChild(): Promise<{ url: string; close(): Promise<void> }> {
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ['--account', `${keyOf(i + 1)}=${i + 1}`]).flat();
  // no --quota flags: the documented 60/minute, 3000/hour, 50000/day
  const child = spawn(process.execPath, [join(REPO, 'bin/gpuledger.js'), 'simulator', '--port', '0', '--now', NOW, ...accounts], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before listening`)));
  });
  return { url, close: async () => (child.kill('SIGTERM'), await exited) };
}

/** Waits until just after the next minute boundary, so a run starts with full minute windows. */
const nextMinute = () => new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 200));

async function syncAccounts(url: string, indexes: number[], dbPath: string) {
  const parsed = parseConfig(
    {
      apiUrl: url,
      accounts: indexes.map((i) => ({ name: `team-${i}`, apiKeyEnv: envOf(i), simulated: true })),
      sync: { start: START, maxRecordsPerRequest: MAX_RECORDS, accountConcurrency: ACCOUNTS },
    },
    'bench',
  );
  const env = Object.fromEntries(indexes.map((i) => [envOf(i), keyOf(i)]));
  await nextMinute();
  const held0 = writerHeld.ms;
  const t0 = performance.now();
  const result = await benchSync(dbPath, parsed, env);
  const ms = performance.now() - t0;
  return { ms, heldMs: writerHeld.ms - held0, result };
}

/** Every (account, source, bucket size) stored, against that account's ledger over the same window. */
async function compareWithLedgers(dbPath: string, truth: Simulator, indexes: number[]) {
  const store = await openStore({ path: dbPath, command: 'bench', readOnly: true });
  const mismatches: string[] = [];
  let compared = 0;
  try {
    for (const i of indexes) {
      const { ledger } = truth.accountOf(keyOf(i));
      for (const source of BILLING_SOURCES as readonly BillingSource[]) {
        const rows = await store.all<{ bucket_size: string; total: string; first_start: string; last_end: string }>(
          `select bucket_size, sum(total_amount)::varchar total, min(start_time)::varchar first_start, max(end_time)::varchar last_end
           from ${BILLING_SOURCE_DEFS[source].table} where account = $1 group by bucket_size`,
          [`team-${i}`],
        );
        for (const row of rows) {
          const want = ledger.sum({ source, start: new Date(row.first_start), end: new Date(row.last_end) }).totalAmount;
          if (decimalStringToMicros(row.total) !== want) mismatches.push(`team-${i} ${source} ${row.bucket_size}: stored ${row.total}, ledger ${want} µ$`);
          compared++;
        }
      }
    }
  } finally {
    await store.close();
  }
  return { compared, mismatches };
}

export async function manyAccounts(dir: string, log: (s: string) => void) {
  const all = Array.from({ length: ACCOUNTS }, (_, i) => i + 1);
  const truth = await startSimulator({ now: NOW, accounts: all.map((i) => ({ key: keyOf(i), seed: i })) });
  const sim = await startChild();
  try {
    log(`many accounts: team-1 alone (${START}, maxRecordsPerRequest ${MAX_RECORDS}, quota 60/minute), from the next minute…`);
    const one = await syncAccounts(sim.url, [1], join(dir, 'accounts-one.duckdb'));
    log(`  ${round(one.ms / 1000, 1)} s, ${one.result.requests} requests, ${one.result.rateLimited} × 429`);
    log(`many accounts: ${ACCOUNTS} accounts side by side, from the next minute…`);
    const ten = await syncAccounts(sim.url, all, join(dir, 'accounts-ten.duckdb'));
    log(`  ${round(ten.ms / 1000, 1)} s, ${ten.result.requests} requests, ${ten.result.rateLimited} × 429`);
    const exact = await compareWithLedgers(join(dir, 'accounts-ten.duckdb'), truth, all);
    const ratio = round(ten.ms / one.ms, 3);
    const zero429 = one.result.rateLimited === 0 && ten.result.rateLimited === 0;
    return {
      value: ratio,
      goal: `≤ ${GOAL}, zero 429s, every account's totals equal its ledger`,
      passed: ratio <= GOAL && zero429 && exact.mismatches.length === 0 && ten.result.status === 'success',
      measured_on: `${ACCOUNTS} simulated small accounts (seeds 1–${ACCOUNTS}, fixed now ${NOW}), each behind its own key at the documented quota (60/minute), served by one simulator child process; sync.start ${START}, default sources and bucket sizes, sync.maxRecordsPerRequest ${MAX_RECORDS} so one account needs more than a minute's quota; accountConcurrency ${ACCOUNTS}; real writing sessions on a database file; both runs start just after a minute boundary`,
      one_account: { seconds: round(one.ms / 1000, 2), requests: one.result.requests, rate_limited: one.result.rateLimited, records: one.result.records, status: one.result.status },
      ten_accounts: {
        seconds: round(ten.ms / 1000, 2),
        requests: ten.result.requests,
        rate_limited: ten.result.rateLimited,
        records: ten.result.records,
        status: ten.result.status,
        writer_held_share: round(ten.heldMs / ten.ms, 3),
      },
      totals: { compared: exact.compared, mismatches: exact.mismatches, exact: exact.mismatches.length === 0 },
    };
  } finally {
    await sim.close();
    await truth.close();
  }
}
