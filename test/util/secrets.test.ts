// One rule for every URL gpuledger takes (issue 26 §1; issue 18 §8 was `_meta_runs.args` keeping `user:password@`):
// what is stored, logged, rendered or sent on has no user name, no password, and `***` for the value of a query
// parameter that holds a credential – wherever the URL stands in a line; everything else stays as it was.
import { describe, expect, it } from 'vitest';
import { redact, registerUrlSecrets } from '../../src/util/secrets.ts';
import { isCredentialParam, urlSecrets, withoutCredentials } from '../../src/util/url-credentials.ts';

describe('redact on URLs', () => {
  it.each([
    ['sync --api-url http://gpuledger:hunter2@127.0.0.1:8787/x --db a', 'sync --api-url http://127.0.0.1:8787/x --db a'],
    ['--api-url=https://u:p@ss:w0rd@proxy.example', '--api-url=https://proxy.example'],
    ['postgres://ledger:s3cret@db:5432/finance and http://a:b@c', 'postgres://db:5432/finance and http://c'],
    ['https://:only-a-password@host/', 'https://host/'],
    ['a token as the user name: https://ghp_abcdef0123@hooks.example/x', 'a token as the user name: https://hooks.example/x'],
    ['postgres://ledger@db:5432/finance', 'postgres://db:5432/finance'],
    ['POST https://hooks.example/x?channel=ops&token=abc123&sig=zz failed', 'POST https://hooks.example/x?channel=ops&token=***&sig=*** failed'],
    ['{"url":"https://h/x?api_key=k-1","n":"a@b"}', '{"url":"https://h/x?api_key=***","n":"a@b"}'],
    ['<td data-v="http://u:pw@h:1">', '<td data-v="http://h:1">'],
    ['s3 https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=f00', 's3 https://b.s3.amazonaws.com/k?X-Amz-Credential=***&X-Amz-Signature=***'],
  ])('removes the credentials in %j', (text, masked) => {
    expect(redact(text)).toBe(masked);
  });

  it.each([
    'https://api.runpod.io/v2/billing?x=a:b@c',
    'https://api.runpod.io/v2/billing?startTime=2026-11-01T00:00:00Z&bucketSize=day',
    'postgres://db:5432/finance?sslmode=require',
    'mail alice:bob@example.com',
    'at 12:30 @team',
    '"http://127.0.0.1:8787","alice@example.com"',
  ])('leaves %j as it is (no credential in a URL)', (text) => {
    expect(redact(text)).toBe(text);
  });

  it('masks a registered URL password and token outside any URL, but not the user name', () => {
    registerUrlSecrets('https://finops:pa%40ss-9f3e1c@hooks.example/x?token=tok-77e0a1b2');
    expect(redact('password pa@ss-9f3e1c, spelled pa%40ss-9f3e1c, token tok-77e0a1b2, user finops')).toBe('password ***, spelled ***, token ***, user finops');
  });
});

describe('withoutCredentials', () => {
  it('keeps a URL as typed, without user, password or credential values', () => {
    expect(withoutCredentials('http://gpuledger:S3CR3T@127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(withoutCredentials(new URL('https://u:p@hooks.example/a/b?token=t&x=1'))).toBe('https://hooks.example/a/b?token=***&x=1');
    expect(withoutCredentials('https://API.example:8443/prefix/')).toBe('https://API.example:8443/prefix/');
  });

  it.each(['token', 'access_token', 'api_key', 'apikey', 'key', 'password', 'passwd', 'pwd', 'secret', 'client_secret', 'sig', 'X-Amz-Signature', 'auth', 'session_id'])(
    'treats the query parameter %s as a credential',
    (name) => expect(isCredentialParam(name)).toBe(true),
  );
  it.each(['sslmode', 'channel', 'format', 'startTime', 'bucketSize', 'x'])('treats the query parameter %s as no credential', (name) => {
    expect(isCredentialParam(name)).toBe(false);
  });

  it('names the secrets of a URL: the password and credential values, decoded and as typed, never the user', () => {
    expect(urlSecrets('https://me:p%40w@h/x?token=a%2Fb&channel=ops').sort()).toEqual(['a%2Fb', 'a/b', 'p%40w', 'p@w'].sort());
    expect(urlSecrets('not a url')).toEqual([]);
  });
});
