// Which account imported metrics belong to when --account is not given (issue 25 §6: with one account, no --account).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { importAccount } from '../../src/metrics/import-metrics.ts';

const config = (...names: string[]) => parseConfig(names.length ? { accounts: names.map((name) => ({ name })) } : {}, 'test');

describe('the account of a metrics import', () => {
  it('is the database\'s only account, whatever the config names (the demo database under a default config)', () => {
    expect(importAccount(config(), undefined, ['demo'])).toBe('demo');
    expect(importAccount(config('prod', 'research'), undefined, ['prod'])).toBe('prod');
  });

  it('is the config\'s only account before the first sync, and when the database holds it among others', () => {
    expect(importAccount(config('prod'), undefined, [])).toBe('prod');
    expect(importAccount(config('prod'), undefined, ['old', 'prod'])).toBe('prod');
  });

  it('asks for --account when there is nothing to go by, naming the accounts', () => {
    expect(() => importAccount(config('prod', 'research'), undefined, [])).toThrow(/there are 2 accounts \(prod, research\); say which with --account NAME/);
    expect(() => importAccount(config('prod', 'research'), undefined, ['a', 'b'])).toThrow(/say which with --account NAME/);
  });

  it('refuses an account without synced cost in a database that holds others', () => {
    expect(() => importAccount(config('prod'), undefined, ['a', 'b'])).toThrow(/the config's account 'prod' has no synced cost in this database/);
    expect(() => importAccount(config(), 'prod', ['demo'])).toThrow(/--account 'prod' has no synced cost/);
  });
});
