// The URLs a config holds, through the one rule of util/url-credentials.ts as soon as they are read. The platform
// and queue API URLs lose their credentials here: requests authenticate with the API key (Bearer,
// billing-api-v2.md §1) and never send a URL's user or password, so nothing after this point – the account row,
// `_meta_runs`, messages, reports – can keep or show them. A webhook URL keeps them: its receiver may want basic
// auth or a ?token= (alert/channels/webhook.ts sends them there and nowhere else). Every URL's password and token
// are registered, so redact() masks them should one turn up in some message all the same.
import { registerUrlSecrets } from '../util/secrets.ts';
import { withoutCredentials } from '../util/url-credentials.ts';
import type { Config } from './schema.ts';

/** An API base URL as gpuledger keeps it: no credentials, no trailing slash. Its secrets are registered. */
export function apiUrlWithoutCredentials(url: string): string {
  registerUrlSecrets(url);
  return withoutCredentials(url).replace(/\/+$/, '');
}

/** The config with its API URLs without credentials, after registering the secrets of every URL it holds. */
export function configWithoutUrlCredentials(config: Config): Config {
  for (const c of config.alerts.channels) if (c.type === 'webhook') registerUrlSecrets(c.url);
  registerUrlSecrets(config.export.postgres?.url);
  return {
    ...config,
    apiUrl: apiUrlWithoutCredentials(config.apiUrl),
    ...(config.queueApiUrl === undefined ? {} : { queueApiUrl: apiUrlWithoutCredentials(config.queueApiUrl) }),
    accounts: config.accounts.map((a) => (a.apiUrl === undefined ? a : { ...a, apiUrl: apiUrlWithoutCredentials(a.apiUrl) })),
  };
}
