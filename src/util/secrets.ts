// Secrets (API keys, SMTP passwords, the passwords and tokens in configured URLs) are registered when read, and
// every line gpuledger writes to a terminal, log, file or database goes through redact(). Defence in depth: code
// should never put a secret into a message in the first place, and tests check that it does not
// (test/integration/secrets-never-leave.test.ts).

import { ConfigError } from './errors.ts';
import { scrubUrlsInText, urlSecrets } from './url-credentials.ts';

const secrets = new Set<string>();

/** Remember a secret so that redact() masks it wherever it turns up. Short values are ignored (too many false hits). */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= 6) secrets.add(value);
}

/** Register the password and credential parameters of a URL gpuledger was given (url-credentials.ts says which). */
export function registerUrlSecrets(url: string | URL | undefined): void {
  if (url !== undefined) for (const s of urlSecrets(url)) registerSecret(s);
}

/** The text without any URL's credentials (url-credentials.ts) or any registered secret. */
export function redact(text: string): string {
  let out = scrubUrlsInText(text);
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join('***');
  }
  return out;
}

// C0 controls, DEL and C1 controls: never part of a key or password, and invalid in an HTTP header (RFC 9110 §5.5).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Read an env var that holds a secret, registering it for redaction. Surrounding whitespace is dropped: a value
 * pasted with a trailing newline, or read from a CRLF env file, is the same key. Any control character left inside
 * is refused with a ConfigError (exit 2) that names the variable – never the value. Empty or blank → undefined.
 */
export function readSecretEnv(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  registerSecret(raw);
  const value = raw.trim();
  if (value === '') return undefined;
  registerSecret(value);
  const at = CONTROL.exec(value);
  if (at) {
    const code = `U+${at[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ConfigError(`the environment variable ${name} contains a control character (${code}) inside its value; set it to the secret alone, on one line`);
  }
  return value;
}
