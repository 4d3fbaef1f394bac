import { defineConfig } from 'vitest/config';

// Two sets, chosen by where a test file lives or how it is named, so a new file lands in the right one unasked:
// "slow" starts real outside parts (Chromium, LibreOffice, PostgreSQL, the CLI or the server as child processes, the
// simulator driven over the CLI); "quick" is everything else, the unit and SQL tests for the edit–test loop.
// `npm test` runs both; `npm run test:quick` runs only "quick".
const slow = [
  'test/browser/**/*.test.ts',
  'test/integration/**/*.test.ts',
  'test/export/postgres-*.test.ts',
  'test/**/*.slow.test.ts',
];

// integration tests start simulators and DuckDB files; two cores, so keep workers modest
const shared = { pool: 'forks', testTimeout: 60_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'quick', include: ['test/**/*.test.ts'], exclude: slow } },
      { test: { ...shared, name: 'slow', include: slow } },
    ],
  },
});
