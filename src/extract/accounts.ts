// Which accounts a sync reads, with their keys from the environment. Checked before the database is opened, so a
// sync where no account has a key is a one-line configuration error (exit 2) that has touched nothing.
import { checkApiUrl } from '../api/api-url.ts';
import type { AccountConfig, ResolvedAccount } from '../config/accounts.ts';
import type { Config } from '../config/schema.ts';
import { ConfigError, UsageError } from '../util/errors.ts';
import { readSecretEnv, registerUrlSecrets } from '../util/secrets.ts';
import { withoutCredentials } from '../util/url-credentials.ts';

export type { ResolvedAccount } from '../config/accounts.ts';

function missingKey(a: AccountConfig): string {
  // `npx gpuledger run --demo` is right both in a checkout and where gpuledger is an installed package (no npm start)
  return `no API key for account '${a.name}': set the environment variable ${a.apiKeyEnv} (or run \`npx gpuledger run --demo\` for a demo on simulated data)`;
}

/** An account as `sync --plan` sees it: the key is optional, since a plan can be made without asking the API. */
export type PlanAccount = Omit<ResolvedAccount, 'apiKey'> & { apiKey: string | undefined };

function selectAccounts(config: Config, only: string | undefined) {
  const accounts = only === undefined ? config.accounts : config.accounts.filter((a) => a.name === only);
  if (accounts.length === 0) {
    throw new UsageError(`--account '${only}' is not in the config; configured accounts: ${config.accounts.map((a) => a.name).join(', ')}`);
  }
  return accounts;
}

/** An account's URL checked, its credentials registered as secrets and removed: requests authenticate with the key. */
function accountUrl(a: AccountConfig, apiUrl: string): string {
  const given = a.apiUrl ?? apiUrl;
  // a URL no request can use (ftp://, no scheme) is a configuration error now, not seven retries later
  checkApiUrl(given, a.apiUrl ? `apiUrl of account '${a.name}'` : 'API URL');
  registerUrlSecrets(given);
  return withoutCredentials(given).replace(/\/+$/, '');
}

/**
 * The accounts a plan covers, each with its key when the environment has one (no key is not an error here: the plan
 * is made without asking the API); an account sharing an earlier one's key is marked `notRead`, as a sync skips it.
 */
export function resolvePlanAccounts(config: Config, apiUrl: string, env: NodeJS.ProcessEnv, only?: string): PlanAccount[] {
  const firstByKey = new Map<string, AccountConfig>();
  return selectAccounts(config, only).map((a) => {
    const account: PlanAccount = { name: a.name, apiUrl: accountUrl(a, apiUrl), apiKey: readSecretEnv(a.apiKeyEnv, env), apiKeyEnv: a.apiKeyEnv, simulated: a.simulated ?? false, billing: a.billing };
    if (!account.apiKey) return account;
    const id = JSON.stringify([account.apiUrl, account.apiKey]);
    const first = firstByKey.get(id);
    if (!first) firstByKey.set(id, a);
    else if (!a.allowSharedKey) return { ...account, notRead: { status: 'skipped', message: sharedKey(first, a) } };
    return account;
  });
}

/**
 * The accounts a sync reads, in the config's order. An account whose key variable is unset, or whose key an account
 * before it already uses, is returned marked `notRead` with its one line, so it fails (or is skipped) alone and the
 * others still sync (issue 26 §7); only when no account has a key is it a configuration error (exit 2) up front.
 */
export function resolveAccounts(config: Config, apiUrl: string, env: NodeJS.ProcessEnv, only?: string): ResolvedAccount[] {
  const accounts = selectAccounts(config, only);
  const keys = accounts.map((a) => readSecretEnv(a.apiKeyEnv, env));
  const firstWithout = accounts.find((_, i) => !keys[i]);
  if (firstWithout && keys.every((k) => !k)) throw new ConfigError(missingKey(firstWithout));
  // the first account to use a key (on an API URL) reads it; a later one is the same platform account again
  const firstByKey = new Map<string, AccountConfig>();
  return accounts.map((a, i) => {
    const url = accountUrl(a, apiUrl);
    const apiKey = keys[i] ?? '';
    const account: ResolvedAccount = { name: a.name, apiUrl: url, apiKey, apiKeyEnv: a.apiKeyEnv, simulated: a.simulated ?? false, billing: a.billing };
    if (!apiKey) return { ...account, notRead: { status: 'failed', message: missingKey(a) } };
    const id = JSON.stringify([url, apiKey]);
    const first = firstByKey.get(id);
    if (!first) firstByKey.set(id, a);
    else if (!a.allowSharedKey) return { ...account, notRead: { status: 'skipped', message: sharedKey(first, a) } };
    return account;
  });
}

/** Names both accounts and where their key comes from – never the key. */
function sharedKey(first: AccountConfig, second: AccountConfig): string {
  const where = first.apiKeyEnv === second.apiKeyEnv ? `both read ${first.apiKeyEnv}` : `${first.apiKeyEnv} and ${second.apiKeyEnv} hold the same key`;
  return (
    `accounts '${first.name}' and '${second.name}' use the same API key (${where}): '${second.name}' is skipped so its costs are not counted twice; ` +
    `give it its own key, or set "allowSharedKey": true on account '${second.name}' if they are meant to share one`
  );
}
