// What every command receives: the resolved settings (flag > env > config file > default) and a logger.
import type { Command } from 'commander';
import { demoBaseConfig, demoInstead } from '../config/demo-database.ts';
import { resolveSettings, type GlobalFlags, type Settings } from '../config/load.ts';
import { UsageError } from '../util/errors.ts';
import { createLogger, LOG_LEVELS, type Logger, type LogLevel } from '../util/log.ts';
import { checkDatabasePath } from './paths.ts';

export interface GlobalOptions extends GlobalFlags {
  logLevel?: string;
}

export interface CliContext {
  settings: Settings;
  log: Logger;
}

export function parseLogLevel(value: string | undefined): LogLevel {
  const level = value ?? process.env.GPULEDGER_LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got '${level}'`);
  }
  return level as LogLevel;
}

export interface ContextOptions {
  /**
   * false for the commands that create the real database (sync, run, schedule): they must never fill the demo's.
   * Every other command reads (or adds to) the demo database until a real one exists – src/config/demo-database.ts.
   */
  demoFallback?: boolean;
}

/** Settings and logger for a command, from its own and the program's global options. */
export function contextFor(command: Command, options: ContextOptions = {}): CliContext {
  const opts = command.optsWithGlobals<GlobalOptions>();
  const log = createLogger({ level: parseLogLevel(opts.logLevel) });
  let settings = resolveSettings(opts);
  checkDatabasePath(settings.dbPath);
  if (options.demoFallback !== false) {
    // an empty GPULEDGER_DB is unset, as in resolveSettings
    const demo = demoInstead(settings.dbPath, opts.db !== undefined || Boolean(process.env.GPULEDGER_DB));
    if (demo) {
      log.info(demo.note);
      // and answer with the config the demo ran with (its allocation categories, budgets), as every reader answers
      // with its own config's rules (src/allocation/reader-rules.ts)
      settings = { ...settings, dbPath: demo.dbPath, config: demoBaseConfig(settings.config, settings.configPath) };
    }
  }
  return { settings, log };
}
