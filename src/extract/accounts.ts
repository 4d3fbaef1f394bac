// Which accounts a sync reads, with their keys from the environment. Checked before the database is opened, so a
// missing key is a one-line configuration error (exit 2) that has touched nothing.
import { checkApiUrl } from '../api/api-url.ts';
import type { ResolvedAccount } from '../config/accounts.ts';
import type { Config } from '../config/schema.ts';
import { ConfigError, UsageError } from '../util/errors.ts';
import { readSecretEnv, registerUrlSecrets } from '../util/secrets.ts';
import { withoutCredentials } from '../util/url-credentials.ts';

export type { ResolvedAccount } from '../config/accounts.ts';

export function resolveAccounts(config: Config, apiUrl: string, env: NodeJS.ProcessEnv, only?: string): ResolvedAccount[] {
  const accounts = only === undefined ? config.accounts : config.accounts.filter((a) => a.name === only);
  if (accounts.length === 0) {
    throw new UsageError(`--account '${only}' is not in the config; configured accounts: ${config.accounts.map((a) => a.name).join(', ')}`);
  }
  return accounts.map((a) => {
    // a URL no request can use (ftp://, no scheme) is a configuration error now, not seven retries later
    const url = a.apiUrl ?? apiUrl;
    checkApiUrl(url, a.apiUrl ? `apiUrl of account '${a.name}'` : 'API URL');
    registerUrlSecrets(url);
    const apiKey = readSecretEnv(a.apiKeyEnv, env);
    if (!apiKey) {
      throw new ConfigError(
        `no API key for account '${a.name}': set the environment variable ${a.apiKeyEnv} (or run \`npm start\` without a key for a demo on simulated data)`,
      );
    }
    return {
      name: a.name,
      // requests authenticate with the key and send no URL credentials: the account keeps none to store or show
      apiUrl: withoutCredentials(url).replace(/\/+$/, ''),
      apiKey,
      apiKeyEnv: a.apiKeyEnv,
      simulated: a.simulated ?? false,
    };
  });
}
