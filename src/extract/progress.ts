// Sync progress: a single redrawn line on a terminal, and on anything else (cron mail, CI logs) a plain log line per
// account at most every few seconds, so logs stay readable. Accounts read side by side share the one line: with one
// in flight it shows that account's bar; with several, one short figure each, in the order they started.
import { unitText } from '../model/index.ts';
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
  /** The account is done: it leaves the line. */
  finish?(account: string): void;
  done(): void;
}

const percent = (s: ProgressState) => (s.bucketsTotal > 0 ? Math.floor((100 * s.bucketsDone) / s.bucketsTotal) : 100);

function detail(s: ProgressState): string {
  return `${s.account} ${s.source} ${s.bucketSize}: ${percent(s)}% of the range · ${s.requests} requests · ${unitText(s.records, 'count')} records`;
}

/** The terminal line for the accounts in flight, cut to `columns` (a figure that does not fit becomes "+k more"). */
export function progressLine(states: readonly ProgressState[], columns = 100): string {
  if (states.length === 0) return '';
  if (states.length === 1) {
    const s = states[0]!;
    const width = 24;
    const filled = s.bucketsTotal > 0 ? Math.round((width * s.bucketsDone) / s.bucketsTotal) : width;
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${detail(s)}`.slice(0, Math.max(columns - 1, 20));
  }
  const head = `${states.length} accounts:`;
  const parts: string[] = [];
  let used = head.length;
  for (const [i, s] of states.entries()) {
    const part = `${s.account} ${s.source} ${percent(s)}%`;
    const rest = states.length - i - 1;
    const tail = rest > 0 ? ` · +${rest} more`.length : 0;
    if (used + 3 + part.length + tail > columns - 1) {
      parts.push(`+${states.length - i} more`);
      break;
    }
    parts.push(part);
    used += 3 + part.length;
  }
  return `${head} ${parts.join(' · ')}`;
}

export function createProgress(log: Logger, stream: NodeJS.WriteStream & { isTTY?: boolean } = process.stderr, intervalMs = 5000): Progress {
  const tty = Boolean(stream.isTTY) && log.level !== 'error';
  const inFlight = new Map<string, ProgressState>();
  const lastLog = new Map<string, number>();
  let drawn = false;
  const draw = () => {
    const line = progressLine([...inFlight.values()], stream.columns ?? 100);
    stream.write(redact(`\r\x1b[2K${line}`));
    drawn = line !== '';
  };
  return {
    update(state) {
      inFlight.set(state.account, state);
      if (tty) return draw();
      const now = Date.now();
      if (now - (lastLog.get(state.account) ?? 0) >= intervalMs || state.bucketsDone === state.bucketsTotal) {
        lastLog.set(state.account, now);
        log.info(detail(state));
      }
    },
    finish(account) {
      inFlight.delete(account);
      lastLog.delete(account);
      if (tty && drawn) draw();
    },
    done() {
      inFlight.clear();
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
