// The explorer's pages alone, p95 with no answer cached: a month by each grouping, per day, on the bench:views data
// (BENCH_VIEWS_DB keeps it). A short check beside bench:serve, which measures every page with its floor; this one
// starts one server and asks only /explore, so it can be run on a quiet moment in under a minute.
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { parseConfig } from '../src/config/load.ts';
import { startServe } from '../src/serve/index.ts';
import { silentLogger } from '../src/util/log.ts';
import { viewsDatabase } from './views-db.ts';

const RUNS = 12;
const GOAL_MS = 500;
const round = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const loadAtStart = loadavg().map(round);
  const { path } = await viewsDatabase();
  const config = parseConfig({ accounts: [{ name: 'bench', apiKeyEnv: 'X' }] }, 'bench');
  const serve = await startServe({ dbPath: path, config, host: '127.0.0.1', port: 0, log: silentLogger, cacheAnswers: false });
  const pages: Record<string, { p95_ms: number; median_ms: number; passed: boolean }> = {};
  try {
    for (const by of ['family', 'template', 'endpoint', 'gpu_type', 'resource', 'account', 'component']) {
      const url = `/explore?from=2026-10-01&to=2026-10-31&granularity=day&by=${by}`;
      await (await fetch(serve.url + url)).text();
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const res = await fetch(serve.url + url);
        await res.text();
        if (res.status !== 200) throw new Error(`${url}: status ${res.status}`);
        ms.push(performance.now() - started);
      }
      ms.sort((a, b) => a - b);
      const p95 = ms[Math.ceil(0.95 * ms.length) - 1]!;
      pages[url] = { p95_ms: round(p95), median_ms: round(ms[Math.floor(ms.length / 2)]!), passed: p95 <= GOAL_MS };
      process.stderr.write(`${url}: p95 ${round(p95)} ms\n`);
    }
  } finally {
    await serve.close();
  }
  const result = {
    benchmark: 'explore-pages',
    command: 'npm run bench:explore',
    judged_by: `each page: p95 of ${RUNS} GETs after one warm-up, no answer cached (goal ≤ ${GOAL_MS} ms)`,
    passed: Object.values(pages).every((p) => p.passed),
    machine: { load_average_at_start: loadAtStart, load_average_at_end: loadavg().map(round) },
    pages,
  };
  writeFileSync(new URL('./results/explore-pages.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
}

await main();
