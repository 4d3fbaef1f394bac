// Which accounts a sync reads, with their keys from the environment. Checked before the database is opened, so a
// missing key is a one-line configuration error (exit 2) that has touched nothing.
import { checkApiUrl } from '../api/api-url.ts';
import type { ResolvedAccount } from '../config/accounts.ts';
import type { Config } from '../config/schema.ts';
import { ConfigError, UsageError } from '../util/errors.ts';
import { readSecretEnv } from '../util/secrets.ts';

export type { ResolvedAccount } from '../config/accounts.ts';

/** An account as `sync --plan` sees it: the key is optional, since a plan can be made without asking the API. */
export type PlanAccount = Omit<ResolvedAccount, 'apiKey'> & { apiKey: string | undefined };

function selectAccounts(config: Config, only: string | undefined) {
  const accounts = only === undefined ? config.accounts : config.accounts.filter((a) => a.name === only);
  if (accounts.length === 0) {
    throw new UsageError(`--account '${only}' is not in the config; configured accounts: ${config.accounts.map((a) => a.name).join(', ')}`);
  }
  return accounts;
}

/** The accounts a plan covers, each with its key when the environment has one (no key is not an error here). */
export function resolvePlanAccounts(config: Config, apiUrl: string, env: NodeJS.ProcessEnv, only?: string): PlanAccount[] {
  return selectAccounts(config, only).map((a) => {
    // a URL no request can use (ftp://, no scheme) is a configuration error now, not seven retries later
    checkApiUrl(a.apiUrl ?? apiUrl, a.apiUrl ? `apiUrl of account '${a.name}'` : 'API URL');
    return {
      name: a.name,
      apiUrl: (a.apiUrl ?? apiUrl).replace(/\/+$/, ''),
      apiKey: readSecretEnv(a.apiKeyEnv, env),
      apiKeyEnv: a.apiKeyEnv,
      simulated: a.simulated ?? false,
    };
  });
}

export function resolveAccounts(config: Config, apiUrl: string, env: NodeJS.ProcessEnv, only?: string): ResolvedAccount[] {
  return resolvePlanAccounts(config, apiUrl, env, only).map((a) => {
    if (!a.apiKey) {
      // `npx gpuledger run --demo` is right both in a checkout and where gpuledger is an installed package (no npm start)
      throw new ConfigError(
        `no API key for account '${a.name}': set the environment variable ${a.apiKeyEnv} (or run \`npx gpuledger run --demo\` for a demo on simulated data)`,
      );
    }
    return { ...a, apiKey: a.apiKey };
  });
}
