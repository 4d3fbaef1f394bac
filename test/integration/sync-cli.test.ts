// `gpuledger sync` as a user runs it: one-line errors with the documented exit codes for bad input and bad keys,
// a key that never shows up anywhere, a second sync refused or waited for, a reader that never blocks a sync, and a sync killed with SIGKILL that the next sync
// finishes with the same money.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { acquireSyncLock } from '../../src/store/lock.ts';
import { gpuledger } from '../helpers/cli.ts';
import { expectMatchesLedger, fastSimulator, KEY, openTestStore, smallSyncConfig, writeConfig } from '../helpers/sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
const SECRET = 'sk-live-0123456789abcdef-do-not-leak';

describe('gpuledger sync on the command line', () => {
  const account = suiteFixture(() =>
    simulatedAccount('gpuledger-test-', ({ sim, tmp }) => ({ config: writeConfig(tmp.dir, smallSyncConfig(sim)) }), { keys: [KEY, SECRET] }),
  );

  // null: the key variable is unset (empty), as on a machine nobody configured.
  const run = (args: string[], key: string | null = SECRET) =>
    gpuledger(['--config', account.config, '--db', account.tmp.db, 'sync', ...args], { GPULEDGER_TEST_KEY: key ?? '' });

  it.each([
    [['--source', 'pods,gpus'], /--source: unknown source 'gpus'; expected .*aggregate/],
    [['--bucket-size', 'minute'], /--bucket-size must be one of hour, day, week, month, year, got 'minute'/],
    [['--since', '2026-10-01'], /--since must be an RFC 3339 date-time/],
    [['--since', '2026-11-10T00:00:00Z', '--until', '2026-11-01T00:00:00Z'], /--since .* must be before --until/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it('says which variable to set when the key is missing (exit 2)', async () => {
    const r = await run([], null);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/no API key for account 'sim': set the environment variable GPULEDGER_TEST_KEY/);
    // npm start exists only in a checkout; `npx gpuledger run --demo` also where gpuledger is an installed package
    expect(r.stderr).toContain('`npx gpuledger run --demo`');
    expect(r.stderr).not.toContain('npm start');
  });

  it('names the variable of a rejected key and never the key (exit 2)', async () => {
    const wrong = 'sk-wrong-key-abcdef-0123456789';
    const r = await run(['--source', 'aggregate'], wrong);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the API key in GPULEDGER_TEST_KEY was rejected \(401\)/);
    expect(r.stderr + r.stdout).not.toContain(wrong);
  });

  it('says which route a restricted key may not read (exit 2)', async () => {
    const r = await run(['--source', 'aggregate'], 'sim-restricted-key');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/may not read \/v2\/billing/);
  });

  it('plans without calling a billing route', async () => {
    const before = account.sim.stats().byRoute;
    const r = await run(['--plan']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pods\s+hour/);
    expect(r.stdout).toMatch(/billing requests/);
    const after = account.sim.stats().byRoute;
    for (const route of Object.keys(after).filter((k) => k.startsWith('/v2/billing'))) {
      expect(after[route]).toBe(before[route]);
    }
  });

  it('plans without a key, asking the API nothing, and says the plan is a guess', async () => {
    const before = account.sim.stats().requests;
    const r = await run(['--plan'], null);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pods\s+hour/);
    expect(r.stdout).toMatch(/no API key for sim: planned without asking the API/);
    expect(account.sim.stats().requests).toBe(before);
  });

  it('syncs, prints a summary, and keeps the key out of the output and the database file', async () => {
    const r = await run([]);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pods\s+hour/);
    expect(r.stdout).toMatch(/success/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(readFileSync(account.tmp.db).includes(Buffer.from(SECRET))).toBe(false);
    expect(readFileSync(`${account.tmp.db}.writer`).includes(Buffer.from(SECRET))).toBe(false);
  });

  it('refuses a second sync at once, naming the holder', async () => {
    const holder = await acquireSyncLock(account.tmp.db, { command: 'test' });
    try {
      const r = await run(['--source', 'aggregate']);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toMatch(/^gpuledger: another gpuledger process \(pid \d+, test since .*\) is syncing .*; try again later or pass --wait SECONDS$/);
    } finally {
      holder.release();
    }
  });

  it('with --wait, waits for the other sync and says whom it waited for', async () => {
    const holder = await acquireSyncLock(account.tmp.db, { command: 'test' });
    try {
      const child = spawn(process.execPath, [BIN, '--config', account.config, '--db', account.tmp.db, 'sync', '--source', 'aggregate', '--wait', '60'], {
        env: { ...process.env, GPULEDGER_CONFIG: '', GPULEDGER_TEST_KEY: SECRET },
      });
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      // let the other sync go as soon as this one says it is waiting
      await new Promise<void>((resolve) => child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/is syncing .*; waiting up to \d+ s/.test(stderr)) resolve();
      }));
      holder.release();
      expect(await exited).toBe(0);
      expect(stderr).toMatch(/waited \d+\.\d s for test \(pid \d+\) to finish its sync/);
    } finally {
      holder.release();
    }
  });

  it('syncs while an analyst holds the database open, and the analyst keeps reading the snapshot they opened', async () => {
    const analyst = await openStore({ path: account.tmp.db, readOnly: true });
    try {
      const before = await analyst.one<{ n: string }>(`select count(*)::varchar n from _meta_runs`);
      const r = await run(['--source', 'aggregate', '--wait', '30']);
      expect(r.stderr).not.toMatch(/lock/i);
      expect(r.code).toBe(0);
      // the open reader is undisturbed: same answer as before the sync
      expect((await analyst.one<{ n: string }>(`select count(*)::varchar n from _meta_runs`))?.n).toBe(before?.n);
    } finally {
      await analyst.close();
    }
    // a reader opened afterwards sees the new run
    const fresh = await openStore({ path: account.tmp.db, readOnly: true });
    try {
      const last = await fresh.one<{ args: string; status: string }>(`select args, status from _meta_runs order by started_at desc limit 1`);
      expect(last?.status).toBe('success');
    } finally {
      await fresh.close();
    }
  });
});

describe('a sync killed mid-way', () => {
  it('leaves a consistent database that the next sync completes with identical totals', async () => {
    // real-time pacing at 10 requests/s makes the first sync long enough to be killed in the middle
    const sim = await fastSimulator({ quotas: { minute: 600, hour: 100_000, day: 1_000_000 } });
    const tmp = tempDir();
    const config = writeConfig(tmp.dir, { ...smallSyncConfig(sim), sync: { start: 'P60D', maxRecordsPerRequest: 500 } });
    try {
      const child = spawn(process.execPath, [BIN, '--config', config, '--db', tmp.db, 'sync', '--source', 'pods,serverless'], {
        env: { ...process.env, GPULEDGER_TEST_KEY: 'sim-demo-key' },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal === 'SIGKILL' ? -9 : _code)));
      // wait until a few billing chunks have been served (and most likely committed), then kill without warning
      const deadline = Date.now() + 30_000;
      while ((sim.stats().byRoute['/v2/billing/pods'] ?? 0) < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGKILL');
      expect(await exited).toBe(-9);

      const r = await gpuledger(['--config', config, '--db', tmp.db, 'sync', '--source', 'pods,serverless'], { GPULEDGER_TEST_KEY: 'sim-demo-key' });
      expect(r.stderr).toMatch(/ended without finishing/);
      expect(r.code).toBe(0);
      const store = await openTestStore(tmp.db);
      try {
        await expectMatchesLedger(store, sim, ['pods', 'serverless'], expect);
        const runs = await store.all<{ status: string }>(`select status from _meta_runs order by started_at`);
        expect(runs.map((x) => x.status)).toEqual(['interrupted', 'success']);
        const dupes = await store.one<{ n: string }>(
          `select count(*)::varchar n from (select bucket_size, start_time, pod_id from raw_billing_pods group by all having count(*) > 1)`,
        );
        expect(dupes?.n).toBe('0');
      } finally {
        await store.close();
      }
    } finally {
      await sim.close();
      tmp.cleanup();
    }
  });
});
