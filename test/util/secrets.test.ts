// redact() masks the password of any URL given with credentials (issue 18 §8: `_meta_runs.args` kept
// `user:password@`), wherever it stands in a line, and leaves everything else alone.
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/util/secrets.ts';

describe('redact on URLs', () => {
  it.each([
    ['sync --api-url http://gpuledger:hunter2@127.0.0.1:8787/x --db a', 'sync --api-url http://gpuledger:***@127.0.0.1:8787/x --db a'],
    ['--api-url=https://u:p@ss:w0rd@proxy.example', '--api-url=https://u:***@proxy.example'],
    ['postgres://ledger:s3cret@db:5432/finance and http://a:b@c', 'postgres://ledger:***@db:5432/finance and http://a:***@c'],
    ['https://:only-a-password@host/', 'https://:***@host/'],
  ])('masks the password in %j', (text, masked) => {
    expect(redact(text)).toBe(masked);
  });

  it.each([
    'postgres://ledger@db:5432/finance',
    'https://api.runpod.io/v2/billing?x=a:b@c',
    'mail alice:bob@example.com',
    'at 12:30 @team',
  ])('leaves %j as it is (no password in a URL)', (text) => {
    expect(redact(text)).toBe(text);
  });
});
