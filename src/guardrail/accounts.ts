// The accounts guardrails read and act on, each with its own client: the key comes from the environment variable
// the config names (never from a flag, a file or the database), and messages name that variable, never the key.
// An account without a key is left out with one line; with no key at all it is a configuration error (exit 2).
import { ApiClient } from '../api/index.ts';
import type { Config } from '../config/schema.ts';
import { resolveAccounts } from '../extract/accounts.ts';
import type { Logger } from '../util/log.ts';
import type { GuardrailAccount } from './apply.ts';

export function guardrailAccounts(config: Config, apiUrl: string, env: NodeJS.ProcessEnv, log: Logger): GuardrailAccount[] {
  const out: GuardrailAccount[] = [];
  for (const a of resolveAccounts(config, apiUrl, env)) {
    if (a.notRead) {
      log.warn(`guardrails: account ${a.name} left out: ${a.notRead.message}`);
      continue;
    }
    out.push({ name: a.name, apiKeyEnv: a.apiKeyEnv, client: new ApiClient({ baseUrl: a.apiUrl, apiKey: a.apiKey, apiKeyEnv: a.apiKeyEnv, log: log.child(a.name) }) });
  }
  return out;
}

export async function closeAccounts(accounts: readonly GuardrailAccount[]): Promise<void> {
  await Promise.all(accounts.map((a) => a.client.close()));
}
