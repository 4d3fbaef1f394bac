// Loading the config: file (JSON) → zod → settings, with CLI flags and env vars taking precedence
// (flag > env > file > default). Errors name the file, the key path and what is accepted.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../util/errors.ts';
import { withoutCredentials } from '../util/url-credentials.ts';
import { issuePath } from '../util/zod-path.ts';
import { apiUrlWithoutCredentials, configWithoutUrlCredentials } from './config-urls.ts';
import { configSchema, type Config } from './schema.ts';

export const DEFAULT_CONFIG_FILE = 'gpuledger.config.json';

export interface GlobalFlags {
  config?: string;
  db?: string;
  apiUrl?: string;
  queueApiUrl?: string;
}

export interface Settings {
  config: Config;
  /** The file the config came from, or undefined when only defaults apply. */
  configPath: string | undefined;
  dbPath: string;
  apiUrl: string;
  /** Flag > env > config; undefined means the default for each account's API URL (src/metrics/queue-url.ts). */
  queueApiUrl: string | undefined;
}

/** The first zod issue as `path: message` – one line a user can act on. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  const path = issue.path.length ? issuePath(issue.path) : '(top level)';
  const extra = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path}: ${issue.message}${extra}`;
}

export function parseConfig(raw: unknown, source: string): Config {
  const result = configSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(`config ${source}: ${describeZodError(result.error)}`);
  return configWithoutUrlCredentials(result.data);
}

export function loadConfigFile(path: string): Config {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`config ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { cause: e });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config ${path}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  return parseConfig(raw, path);
}

export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const explicit = flags.config ?? env.GPULEDGER_CONFIG;
  let configPath: string | undefined;
  if (explicit) {
    configPath = resolve(cwd, explicit);
    if (!existsSync(configPath)) throw new ConfigError(`config ${explicit}: no such file`);
  } else if (existsSync(resolve(cwd, DEFAULT_CONFIG_FILE))) {
    configPath = resolve(cwd, DEFAULT_CONFIG_FILE);
  }
  const config = configPath ? loadConfigFile(configPath) : parseConfig({}, '(defaults)');
  // an empty variable (`export GPULEDGER_DB=`) is unset, as for GPULEDGER_CONFIG above – not the current folder
  const apiUrl = flags.apiUrl ?? (env.GPULEDGER_API_URL || config.apiUrl);
  try {
    new URL(apiUrl);
  } catch {
    throw new ConfigError(`API URL '${withoutCredentials(apiUrl)}' is not a valid URL (expected e.g. https://api.runpod.io)`);
  }
  const queueApiUrl = flags.queueApiUrl ?? env.GPULEDGER_QUEUE_API_URL ?? config.queueApiUrl;
  if (queueApiUrl !== undefined) {
    try {
      new URL(queueApiUrl);
    } catch {
      throw new ConfigError(`queue API URL '${withoutCredentials(queueApiUrl)}' is not a valid URL (expected e.g. https://api.runpod.ai)`);
    }
  }
  const queue = queueApiUrl === undefined ? undefined : apiUrlWithoutCredentials(queueApiUrl);
  return {
    // the sync reads the queue URL from the config it is given: the resolved one goes there
    config: queue === undefined ? config : { ...config, queueApiUrl: queue },
    queueApiUrl: queue,
    configPath,
    dbPath: resolve(cwd, flags.db ?? (env.GPULEDGER_DB || config.database)),
    apiUrl: apiUrlWithoutCredentials(apiUrl),
  };
}
