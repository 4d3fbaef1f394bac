import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/test-sets.ts';

// Two projects, chosen by where a test file lives or how it is named (test/test-sets.ts), so a new file lands in the
// right one unasked: "quick" (unit and SQL tests, `npm run test:quick`) and "slow"; `npm test` runs both.
// integration tests start simulators and DuckDB files; two cores, so keep workers modest
const shared = { pool: 'forks', testTimeout: 60_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'quick', include: ['test/**/*.test.ts'], exclude: SLOW_TESTS } },
      { test: { ...shared, name: 'slow', include: SLOW_TESTS } },
    ],
  },
});
