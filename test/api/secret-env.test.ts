// readSecretEnv: keys and passwords pasted with CR/LF or spaces are the same secret; any other control character is
// refused in one line that names the variable and never the value.
import { describe, expect, it } from 'vitest';
import { ConfigError, exitCodeOf } from '../../src/util/errors.ts';
import { readSecretEnv, redact } from '../../src/util/secrets.ts';

describe('readSecretEnv', () => {
  it.each([
    ['CRLF', 'pw-0123456789\r\n'],
    ['LF', 'pw-0123456789\n'],
    ['spaces and tabs', ' \tpw-0123456789 '],
  ])('drops surrounding %s', (_name, raw) => {
    expect(readSecretEnv('SMTP_PW', { SMTP_PW: raw })).toBe('pw-0123456789');
  });

  it('treats an empty or blank value as unset', () => {
    expect(readSecretEnv('K', { K: '' })).toBeUndefined();
    expect(readSecretEnv('K', { K: ' \r\n' })).toBeUndefined();
    expect(readSecretEnv('K', {})).toBeUndefined();
  });

  it('refuses a control character inside the value, naming the variable only (exit 2)', () => {
    let error: unknown;
    try {
      readSecretEnv('MY_KEY', { MY_KEY: 'abc-secret\r\ndef-secret' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(exitCodeOf(error)).toBe(2);
    const message = (error as Error).message;
    expect(message).toBe('the environment variable MY_KEY contains a control character (U+000D) inside its value; set it to the secret alone, on one line');
    expect(message).not.toMatch(/abc|def/);
  });

  it('registers the value for redaction, trimmed and as pasted', () => {
    readSecretEnv('K2', { K2: 'zz-redact-me-0123\r\n' });
    expect(redact('key zz-redact-me-0123 here')).toBe('key *** here');
  });
});
