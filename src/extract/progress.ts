// Sync progress: a single redrawn line on a terminal, and on anything else (cron mail, CI logs) a plain log line at
// most every few seconds, so logs stay readable.
import type { Logger } from '../util/log.ts';
import { redact } from '../util/secrets.ts';

export interface ProgressState {
  account: string;
  source: string;
  bucketSize: string;
  /** Buckets of the current range done / total. */
  bucketsDone: number;
  bucketsTotal: number;
  requests: number;
  records: number;
}

export interface Progress {
  update(state: ProgressState): void;
  done(): void;
}

export function createProgress(log: Logger, stream: NodeJS.WriteStream & { isTTY?: boolean } = process.stderr, intervalMs = 5000): Progress {
  const tty = Boolean(stream.isTTY) && log.level !== 'error';
  let lastLog = 0;
  let drawn = false;
  const line = (s: ProgressState) => {
    const pct = s.bucketsTotal > 0 ? Math.floor((100 * s.bucketsDone) / s.bucketsTotal) : 100;
    return `${s.account} ${s.source} ${s.bucketSize}: ${pct}% of the range · ${s.requests} requests · ${s.records.toLocaleString('en-US')} records`;
  };
  return {
    update(state) {
      if (tty) {
        const width = 24;
        const filled = state.bucketsTotal > 0 ? Math.round((width * state.bucketsDone) / state.bucketsTotal) : width;
        const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
        stream.write(redact(`\r\x1b[2K${bar} ${line(state)}`));
        drawn = true;
        return;
      }
      const now = Date.now();
      if (now - lastLog >= intervalMs || state.bucketsDone === state.bucketsTotal) {
        lastLog = now;
        log.info(line(state));
      }
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
