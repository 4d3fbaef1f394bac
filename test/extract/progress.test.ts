import { describe, expect, it } from 'vitest';
import { createProgress, progressLine, type ProgressState } from '../../src/extract/progress.ts';
import { createLogger } from '../../src/util/log.ts';

const state = (account: string, done: number, total = 10): ProgressState => ({ account, source: 'pods', bucketSize: 'day', bucketsDone: done, bucketsTotal: total, requests: 3, records: 1234 });

describe('sync progress', () => {
  it('draws one account as a bar with its figures', () => {
    expect(progressLine([state('prod', 5)])).toBe('[############............] prod pods day: 50% of the range · 3 requests · 1,234 records');
  });

  it('shows several accounts on one line, one short figure each, cut to the terminal with "+k more"', () => {
    const states = ['prod', 'research', 'team-a', 'team-b', 'team-c'].map((a, i) => state(a, i));
    expect(progressLine(states, 200)).toBe('5 accounts: prod pods 0% · research pods 10% · team-a pods 20% · team-b pods 30% · team-c pods 40%');
    const cut = progressLine(states, 60);
    expect(cut.length).toBeLessThan(60);
    expect(cut).toMatch(/^5 accounts: prod pods 0% · research pods 10% · .*\+\d more$/);
  });

  it('logs each account on its own clock when not on a terminal', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', timestamps: false, stream: { write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream });
    const progress = createProgress(log, { isTTY: false } as unknown as NodeJS.WriteStream, 60_000);
    progress.update(state('a', 1));
    progress.update(state('b', 1));
    progress.update(state('a', 2)); // within the interval: not logged
    progress.update(state('a', 10)); // a range done: always logged
    expect(lines.map((l) => l.replace(/^.*info\s+/, '').trim())).toEqual([
      'a pods day: 10% of the range · 3 requests · 1,234 records',
      'b pods day: 10% of the range · 3 requests · 1,234 records',
      'a pods day: 100% of the range · 3 requests · 1,234 records',
    ]);
  });

  it('redraws on a terminal, drops a finished account from the line and clears it at the end', () => {
    const written: string[] = [];
    const stream = { isTTY: true, columns: 200, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const quiet = createLogger({ level: 'info', stream: { write: () => true } as unknown as NodeJS.WritableStream });
    const progress = createProgress(quiet, stream);
    progress.update(state('a', 1));
    progress.update(state('b', 2));
    expect(written.at(-1)).toContain('2 accounts: a pods 10% · b pods 20%');
    progress.finish?.('a');
    expect(written.at(-1)).toContain('] b pods day: 20%');
    progress.done();
    expect(written.at(-1)).toBe('\r\x1b[2K');
  });
});
