// `gpuledger sync` flags and summary (issue 12 §5): a --since in the future is refused instead of a "skipped" sync
// with exit 0, and a range with nothing complete yet shows an empty complete_through – never null or 1970.
import { describe, expect, it } from 'vitest';
import { parseSyncFlags, summaryTable } from '../../src/cli/commands/sync.ts';
import { SOURCES } from '../../src/config/sync.ts';
import type { SyncResult } from '../../src/extract/sync.ts';

const NOW = new Date('2026-11-20T12:00:00Z');

describe('parseSyncFlags', () => {
  it('refuses a --since after now, saying when now is', () => {
    expect(() => parseSyncFlags({ since: '2026-11-21T00:00:00Z' }, SOURCES, NOW)).toThrow(
      '--since 2026-11-21T00:00:00Z is in the future (it is now 2026-11-20T12:00:00Z); pass a time before now',
    );
  });

  it('accepts a --since up to now', () => {
    expect(parseSyncFlags({ since: '2026-11-20T12:00:00Z' }, SOURCES, NOW).since).toEqual(NOW);
  });
});

describe('summaryTable', () => {
  it('shows an empty complete_through when nothing is complete yet', () => {
    const result = {
      runId: 'r1',
      status: 'success',
      requests: 0,
      retries: 0,
      rateLimited: 0,
      records: 0,
      bytes: 0,
      warnings: [],
      errors: [],
      ranges: [{ account: 'a', source: 'pods', bucketSize: 'day', requests: 0, records: 0, amountMicros: 0n, completeThrough: null, status: 'skipped' }],
    } as unknown as SyncResult;
    const table = summaryTable(result);
    const at = table.columns.findIndex((c) => c.name === 'complete_through');
    expect(table.rows[0]![at]).toBe('');
  });
});
