// The database of bench:views (and bench:serve): the large simulated account scaled up threefold (3,000 pods, 300
// endpoints, 600 volumes, 400 days), every billing source at hourly buckets for the whole history, loaded straight
// from the simulator's ledger into the raw tables, plus its inventory. BENCH_VIEWS_DB=path keeps it between runs.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../src/simulator/index.ts';
import { openStore } from '../src/store/database.ts';
import { refreshMaterialized } from '../src/transform/materialize.ts';
import { loadSimulator } from '../test/helpers/simulator-loader.ts';

export const NOW = '2026-11-20T00:00:00Z';
export const COUNTS = { pods: 3000, endpoints: 300, volumes: 600 };

export async function build(path: string): Promise<number> {
  const started = Date.now();
  const sim = await startSimulator({ seed: 42, scale: 'large', counts: COUNTS, now: NOW, quotas: { minute: 100_000, hour: 1_000_000, day: 10_000_000 } });
  const store = await openStore({ path, command: 'bench' });
  try {
    await loadSimulator(store, sim, { account: 'bench', bucketSizes: ['hour'], start: sim.account.historyStart, end: new Date(NOW), chunk: 24 * 7 });
    await store.run('checkpoint');
  } finally {
    await store.close();
    await sim.close();
  }
  return Date.now() - started;
}

/** The database at BENCH_VIEWS_DB (built there once), or a fresh one in a temp folder. */
export async function viewsDatabase(): Promise<{ path: string; buildMs: number | null }> {
  const path = process.env.BENCH_VIEWS_DB ?? join(mkdtempSync(join(tmpdir(), 'gpuledger-bench-views-')), 'bench.duckdb');
  if (existsSync(path)) {
    // a database kept from an older build: its views and materialised tables brought up to this one's, as the next
    // writing session of a user who upgraded would (a new fct_* table is empty until then)
    const store = await openStore({ path, command: 'bench' });
    try {
      await refreshMaterialized(store);
      await store.run('checkpoint');
    } finally {
      await store.close();
    }
    return { path, buildMs: null };
  }
  process.stderr.write(`building ${path} from the large simulator (hourly, all sources)…\n`);
  return { path, buildMs: await build(path) };
}
