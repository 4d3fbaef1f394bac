// A caller that asked for JSON reads a failure as JSON too (issue 19 §5): one line on stderr, {"error", "code"}, with
// the exit code unchanged; without --format json the same failure is the usual `gpuledger: …` line.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gpuledger } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('failures in JSON', () => {
  const db = join(tempDir('gpuledger-json-errors-').dir, 'none.duckdb');

  it.each([
    [['query', 'select 1', '--format', 'json'], 2, 'db_missing'],
    [['query', 'select 1', '--format=ndjson'], 2, 'db_missing'],
    [['views', '--format', 'json', '--no-such-flag'], 2, 'usage'],
    [['billing', 'pods', '-o', 'json'], 2, 'db_missing'],
  ])('%j fails with one JSON line naming the code', async (args, exit, code) => {
    const r = await gpuledger(['--db', db, ...args]);
    expect(r.code).toBe(exit);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!) as { error: string; code: string };
    expect(parsed.code).toBe(code);
    expect(parsed.error).not.toMatch(/^gpuledger: /);
    expect(parsed.error.length).toBeGreaterThan(10);
  });

  it('keeps the plain line when no JSON was asked for', async () => {
    const r = await gpuledger(['--db', db, 'query', 'select 1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gpuledger: database .* does not exist yet/);
  });
});
