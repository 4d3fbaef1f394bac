// Accounts side by side (issue 21 §1): one simulator serving three accounts, each behind its own key; a sync of
// four configured accounts – one with a rejected key – reads the three good ones concurrently, each equal to its own
// ledger to the micro-dollar, and the bad one fails alone, named in the result and on the command line (exit 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.ts';
import { parseConfig } from '../../src/config/load.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import type { ProgressState } from '../../src/extract/progress.ts';
import { runSync } from '../../src/extract/sync.ts';
import type { BillingSource, Simulator } from '../../src/simulator/index.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { silentLogger } from '../../src/util/log.ts';
import { gpuledger } from '../helpers/cli.ts';
import { fastSimulator, KEY, openTestStore, storedTotals, writeConfig } from '../helpers/sync.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';

const TEAM_KEYS = { 'team-a': 'sim-team-a-key', 'team-b': 'sim-team-b-key' } as const;
const SOURCES: BillingSource[] = ['pods', 'serverless', 'network-volumes', 'aggregate'];
const ENV = { KEY_MAIN: KEY, KEY_A: TEAM_KEYS['team-a'], KEY_B: TEAM_KEYS['team-b'], KEY_BAD: 'sk-not-a-key-0123456789' };

function config(sim: Simulator, accountConcurrency: number): ConfigInput {
  return {
    apiUrl: sim.url,
    accounts: [
      { name: 'main', apiKeyEnv: 'KEY_MAIN', simulated: true },
      { name: 'team-a', apiKeyEnv: 'KEY_A', simulated: true },
      { name: 'bad', apiKeyEnv: 'KEY_BAD', simulated: true },
      { name: 'team-b', apiKeyEnv: 'KEY_B', simulated: true },
    ],
    sync: { start: 'P10D', sources: [...SOURCES, 'inventory'], accountConcurrency, bucketSizes: { pods: [{ size: 'day' }], serverless: [{ size: 'day' }] } },
  };
}

describe('accounts synced side by side', () => {
  let sim: Simulator;
  let tmp: TempDir;

  beforeAll(async () => {
    sim = await fastSimulator({ accounts: [{ key: TEAM_KEYS['team-a'], seed: 7 }, { key: TEAM_KEYS['team-b'], seed: 8 }] });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const sync = async (db: string, accountConcurrency: number) => {
    const parsed = parseConfig(config(sim, accountConcurrency), 'test');
    const seen: ProgressState[] = [];
    const finished: string[] = [];
    const store = await openTestStore(db);
    try {
      const result = await runSync({
        store,
        config: parsed,
        accounts: resolveAccounts(parsed, parsed.apiUrl, ENV),
        log: silentLogger,
        client: { initialRatePerSecond: 1000 },
        progress: { update: (s) => seen.push({ ...s }), finish: (a) => finished.push(a), done: () => undefined },
      });
      const totals: Record<string, string[]> = {};
      for (const account of ['main', 'team-a', 'team-b', 'bad']) {
        totals[account] = [];
        for (const source of SOURCES) {
          for (const row of await storedTotals(store, source, account)) totals[account]!.push(`${source} ${row.bucket_size} ${row.first_start}..${row.last_end}: ${decimalStringToMicros(row.total)}`);
        }
      }
      return { result, seen, finished, totals };
    } finally {
      await store.close();
    }
  };

  beforeAll(() => {
    tmp = tempDir('gpuledger-accounts-');
  });
  afterAll(() => tmp?.cleanup());

  it('loads each account equal to its own ledger, and the bad key fails alone', async () => {
    const { result, seen, finished, totals } = await sync(tmp.db, 4);
    expect(result.status).toBe('partial');
    expect(result.errors).toEqual([{ account: 'bad', source: '*', message: expect.stringMatching(/the API key in KEY_BAD was rejected \(401\)/) }]);
    expect(result.rateLimited).toBe(0);
    expect(totals.bad).toEqual([]);
    for (const [account, key] of [['main', KEY], ['team-a', TEAM_KEYS['team-a']], ['team-b', TEAM_KEYS['team-b']]] as const) {
      const { ledger } = sim.accountOf(key);
      const want: string[] = [];
      for (const line of totals[account]!) {
        const m = /^(\S+) (\S+) (.+)\.\.(.+): -?\d+$/.exec(line)!;
        const sum = ledger.sum({ source: m[1] as BillingSource, start: new Date(m[3]!), end: new Date(m[4]!) }).totalAmount;
        want.push(`${m[1]} ${m[2]} ${m[3]}..${m[4]}: ${sum}`);
      }
      expect(totals[account]!.length, account).toBeGreaterThanOrEqual(SOURCES.length);
      expect(totals[account], account).toEqual(want);
    }
    // three different accounts, not one account three times
    expect(new Set([totals.main!.join(), totals['team-a']!.join(), totals['team-b']!.join()]).size).toBe(3);
    // side by side: another account reported progress before the first one finished
    const firstDone = seen.findLastIndex((s) => s.account === seen[0]!.account);
    expect(new Set(seen.slice(0, firstDone).map((s) => s.account)).size).toBeGreaterThan(1);
    expect([...finished].sort()).toEqual(['bad', 'main', 'team-a', 'team-b']);
    // the summary keeps the config's order however the accounts interleaved
    const order = [...new Set(result.ranges.map((r) => r.account))];
    expect(order).toEqual(['main', 'team-a', 'team-b']);
  });

  it('reads one account after another with accountConcurrency 1', async () => {
    const other = tempDir('gpuledger-accounts-serial-');
    try {
      const { seen, result } = await sync(other.db, 1);
      const runs = seen.map((s) => s.account).filter((a, i, all) => i === 0 || all[i - 1] !== a);
      expect(runs).toEqual(['main', 'team-a', 'team-b']);
      expect(result.errors.map((e) => e.account)).toEqual(['bad']);
    } finally {
      other.cleanup();
    }
  });

  it('says on the command line which account failed and exits 3 while the others load', async () => {
    const other = tempDir('gpuledger-accounts-cli-');
    try {
      const path = writeConfig(other.dir, config(sim, 10));
      const r = await gpuledger(['--config', path, '--db', other.db, 'sync', '--source', 'aggregate'], ENV);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toMatch(/^bad +all .*failed: the API key in KEY_BAD was rejected \(401\)/m);
      expect(r.stderr + r.stdout).not.toContain(ENV.KEY_BAD);
      for (const account of ['main', 'team-a', 'team-b']) expect(r.stdout + r.stderr).toContain(account);
    } finally {
      other.cleanup();
    }
  });

  /** A CLI sync of `accounts` (aggregate only); the accounts whose rows landed, and how many rows each. */
  async function cliSync(accounts: ConfigInput['accounts'], env: Record<string, string>) {
    const other = tempDir('gpuledger-accounts-keys-');
    try {
      const path = writeConfig(other.dir, { ...config(sim, 4), accounts });
      const r = await gpuledger(['--config', path, '--db', other.db, 'sync', '--source', 'aggregate'], env);
      const rows: Record<string, number> = {};
      if (r.code === 0 || r.code === 3) {
        const store = await openTestStore(other.db);
        try {
          for (const x of await store.all<{ account: string; n: string }>(`select account, count(*)::varchar n from raw_billing_aggregate group by all order by all`)) rows[x.account] = Number(x.n);
        } finally {
          await store.close();
        }
      }
      return { ...r, rows };
    } finally {
      other.cleanup();
    }
  }

  it('fails alone the account whose key variable is unset, in one line, while the others sync (exit 3)', async () => {
    const r = await cliSync(
      [
        { name: 'main', apiKeyEnv: 'KEY_MAIN', simulated: true },
        { name: 'unset', apiKeyEnv: 'KEY_NOBODY_SET', simulated: true },
        { name: 'team-a', apiKeyEnv: 'KEY_A', simulated: true },
      ],
      { ...ENV, KEY_NOBODY_SET: '' },
    );
    expect(r.code, r.stderr).toBe(3);
    const line = "no API key for account 'unset': set the environment variable KEY_NOBODY_SET";
    expect(r.stdout).toMatch(new RegExp(`^unset +all .*failed: ${line}`, 'm'));
    expect(r.stderr.split('\n').filter((l) => l.includes(line))).toHaveLength(1);
    expect(Object.keys(r.rows)).toEqual(['main', 'team-a']);
    expect(r.stdout).toMatch(/: partial ·/);
  });

  it('says in --plan which accounts a sync would not read, and plans one without a key from the clock', async () => {
    const other = tempDir('gpuledger-accounts-plan-');
    try {
      const path = writeConfig(other.dir, {
        ...config(sim, 4),
        accounts: [
          { name: 'main', apiKeyEnv: 'KEY_MAIN', simulated: true },
          { name: 'unset', apiKeyEnv: 'KEY_NOBODY_SET', simulated: true },
          { name: 'main-again', apiKeyEnv: 'KEY_MAIN', simulated: true },
        ],
      });
      const r = await gpuledger(['--config', path, '--db', other.db, 'sync', '--plan'], { ...ENV, KEY_NOBODY_SET: '' });
      expect(r.code, r.stderr).toBe(0);
      // a plan calls no billing route: the account without a key is planned from the clock and says so (issue 25 §6);
      // the one sharing main's key would be skipped by a sync, and the plan says that instead of planning it
      expect(r.stdout).toContain('no API key for unset: planned without asking the API');
      expect(r.stdout).toMatch(/^unset /m);
      expect(r.stdout).toContain("not read: accounts 'main' and 'main-again' use the same API key (both read KEY_MAIN)");
      expect(r.stdout).not.toMatch(/^main-again /m);
    } finally {
      other.cleanup();
    }
  });

  it('still refuses up front (exit 2, nothing written) when no account has a key', async () => {
    const r = await cliSync(
      [
        { name: 'a', apiKeyEnv: 'KEY_NOBODY_SET', simulated: true },
        { name: 'b', apiKeyEnv: 'KEY_NOBODY_SET_EITHER', simulated: true },
      ],
      { KEY_NOBODY_SET: '', KEY_NOBODY_SET_EITHER: '' },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^gpuledger: no API key for account 'a': set the environment variable KEY_NOBODY_SET/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    ['the same key variable', 'KEY_MAIN', 'both read KEY_MAIN'],
    ['another variable holding the same key', 'KEY_MAIN_AGAIN', 'KEY_MAIN and KEY_MAIN_AGAIN hold the same key'],
  ])('skips, naming both, an account with %s: its costs are not counted twice', async (_case, env, where) => {
    const r = await cliSync(
      [
        { name: 'main', apiKeyEnv: 'KEY_MAIN', simulated: true },
        { name: 'team-a', apiKeyEnv: 'KEY_A', simulated: true },
        { name: 'main-again', apiKeyEnv: env, simulated: true },
      ],
      { ...ENV, KEY_MAIN_AGAIN: KEY },
    );
    expect(r.code, r.stderr).toBe(0);
    const line = `accounts 'main' and 'main-again' use the same API key (${where}): 'main-again' is skipped so its costs are not counted twice; give it its own key, or set "allowSharedKey": true on account 'main-again' if they are meant to share one`;
    expect(r.stdout).toContain(`warning: ${line}`);
    expect(r.stderr.split('\n').filter((l) => l.includes(line))).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(Object.keys(r.rows)).toEqual(['main', 'team-a']);
  });

  it('reads both accounts sharing a key when the second says allowSharedKey', async () => {
    const r = await cliSync(
      [
        { name: 'main', apiKeyEnv: 'KEY_MAIN', simulated: true },
        { name: 'main-again', apiKeyEnv: 'KEY_MAIN', simulated: true, allowSharedKey: true },
      ],
      ENV,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/same API key/);
    expect(r.rows.main).toBeGreaterThan(0);
    expect(r.rows['main-again']).toBe(r.rows.main);
  });
});
