import { defineConfig } from 'vitest/config';
import LongestFirst from './test/helpers/longest-first.ts';
import { SLOW_TESTS } from './test/test-sets.ts';

// Two projects, chosen by where a test file lives or how it is named (test/test-sets.ts), so a new file lands in the
// right one unasked: "quick" (unit and SQL tests, `npm run test:quick`) and "slow"; `npm test` runs both.
// Three workers on two cores: much of a test's time is spent waiting – on a CLI child, a server, Chromium, a deadline
// running out – and a third worker fills those waits (measured quiet, same tests: `npm test` 6 m 34 s of test time
// with two workers, 5 m 50 s with three; `test:quick` 57 s → 51 s; CPU time equal).
// test/helpers/run-folder.ts gives the run one folder for fixtures built once (a synced database, copied per test).
const shared = { pool: 'forks', testTimeout: 60_000, hookTimeout: 60_000, globalSetup: 'test/helpers/run-folder.ts' } as const;

export default defineConfig({
  test: {
    maxWorkers: 3,
    // longest file first across both projects (vitest's own order runs every quick file before any slow one)
    sequence: { sequencer: LongestFirst },
    projects: [
      // quick files reuse their worker (DuckDB and the modules load once per worker, not per file): they start no
      // outside part and leave no global state behind
      { test: { ...shared, name: 'quick', include: ['test/**/*.test.ts'], exclude: SLOW_TESTS, isolate: false } },
      // slow files reuse their worker too: a new worker per file re-imported the sources, DuckDB and vitest (~0.5
      // CPU-s a file); what they start outside (a CLI, a server, Chromium, PostgreSQL) each file starts and stops itself
      { test: { ...shared, name: 'slow', include: SLOW_TESTS, isolate: false } },
    ],
  },
});
