// One logger for the whole program: human lines on stderr (stdout is reserved for command output, so pipes stay
// clean). Every line is redacted. On a TTY lines are short; otherwise they carry an ISO timestamp for cron logs.
import { redact } from './secrets.ts';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  level: LogLevel;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  /** A logger whose lines are prefixed with `scope:`. */
  child(scope: string): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  timestamps?: boolean;
  scope?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const timestamps = options.timestamps ?? !stream.isTTY;
  const state = { level: options.level ?? 'info' };
  const make = (scope: string | undefined): Logger => {
    const write = (lvl: LogLevel, message: string) => {
      if (LOG_LEVELS.indexOf(lvl) > LOG_LEVELS.indexOf(state.level)) return;
      const parts: string[] = [];
      if (timestamps) parts.push(new Date().toISOString());
      if (timestamps || lvl !== 'info') parts.push(lvl.padEnd(5));
      if (scope) parts.push(`${scope}:`);
      parts.push(message);
      stream.write(redact(parts.join(' ')) + '\n');
    };
    return {
      get level() {
        return state.level;
      },
      set level(l: LogLevel) {
        state.level = l;
      },
      error: (m) => write('error', m),
      warn: (m) => write('warn', m),
      info: (m) => write('info', m),
      debug: (m) => write('debug', m),
      child: (s) => make(scope ? `${scope}:${s}` : s),
    };
  };
  return make(options.scope);
}

/** A logger that drops everything (library calls from tests that do not care about logs). */
export const silentLogger: Logger = createLogger({
  level: 'error',
  stream: { write: () => true } as unknown as NodeJS.WritableStream,
});
