// Secrets (API keys, SMTP passwords) are registered when read from the environment, and every line gpuledger
// writes to a terminal, log, file or database goes through redact(). Defence in depth: code should never put a
// secret into a message in the first place, and tests check that it does not.

const secrets = new Set<string>();

/** Remember a secret so that redact() masks it wherever it turns up. Short values are ignored (too many false hits). */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= 6) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join('***');
  }
  return out;
}

/** Read an env var that holds a secret, registering it for redaction. */
export function readSecretEnv(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  registerSecret(value);
  return value;
}
