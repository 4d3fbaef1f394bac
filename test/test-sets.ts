// Which test files are "slow" (they start real outside parts: Chromium, LibreOffice, PostgreSQL, or the CLI, the
// server or a script as a child process); every other test file is "quick". Read by vitest.config.ts and by
// test/test-sets.test.ts, so the rule is written once.
export const SLOW_TESTS = [
  'test/browser/**/*.test.ts',
  'test/integration/**/*.test.ts',
  'test/export/postgres-*.test.ts',
  'test/**/*.slow.test.ts',
];
