// How `gpuledger export postgres` fails, run as a user runs it (the real CLI in a child process) against a real
// PostgreSQL server: a wrong password, an unreachable server, an export killed with SIGKILL part-way and a server
// stopped part-way each end in one line with the documented exit code, and the previous export stays exactly as it
// was; the next run finishes the job. The password appears in no output and no table. And the nightly job: a failed
// export makes the run partial (exit 3).
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { runNightly } from '../../src/run/nightly.ts';
import { withReader } from '../../src/store/shared-database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { closedPort } from '../helpers/alert-delivery.ts';
import { startGpuledger } from '../helpers/cli.ts';
import { postgresExportFixture, requirePostgres } from '../helpers/postgres.ts';
import { fastSimulator, KEY, openTestStore, smallSyncConfig, syncOnce } from '../helpers/sync.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const WRONG = 'not-the-password-7f3a';

describe.runIf(requirePostgres())('gpuledger export postgres when things go wrong', () => {
  const pgx = suiteFixture(() => postgresExportFixture('gpuledger-pg-failures-', copySyncedDatabase), 180_000);
  const sim = suiteFixture(() => fastSimulator());
  const outputs: string[] = [];

  const start = (args: string[], env: NodeJS.ProcessEnv) => {
    const { child, ended } = startGpuledger(['--db', pgx.tmp.db, ...args], { PGPASSWORD: '', ...env });
    const done = ended.then((run) => {
      outputs.push(run.stdout, run.stderr);
      return run;
    });
    return { child, done };
  };
  const exportCli = (password: string, extra: string[] = []) => start(['export', 'postgres', '--url', pgx.server.url, ...extra], { PGPASSWORD: password });
  const sync = async (now: string) => {
    sim.setNow(now);
    const store = await openTestStore(pgx.tmp.db);
    try {
      expect((await syncOnce(store, smallSyncConfig(sim))).status).toBe('success');
    } finally {
      await store.close();
    }
  };
  /** Every table of the schema, each as a digest of its rows in a fixed order: equal digests, same export. */
  const snapshot = async () => {
    const tables = (await pgx.client.query(`select tablename from pg_tables where schemaname = 'gpuledger' order by 1`)).rows.map((r) => r.tablename as string);
    const digests: Record<string, string> = {};
    for (const t of tables) {
      digests[t] = (await pgx.client.query(`select count(*) || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as d from gpuledger.${t} as t`)).rows[0].d;
    }
    return digests;
  };
  const costMatchesDuckDb = async () => {
    const duck = await withReader(pgx.tmp.db, (s) => s.one<{ total: string; n: string }>(`select sum(amount)::varchar as total, count(*)::varchar as n from cost_daily`));
    const post = (await pgx.client.query(`select sum(amount)::text as total, count(*)::text as n from gpuledger.cost_daily`)).rows[0];
    return post.total === duck!.total && post.n === duck!.n;
  };
  /** Wait until the export's session waits for a lock, having written cost_daily already; returns its pid. */
  const blockedMidExport = async (): Promise<number> => {
    for (let i = 0; i < 600; i++) {
      const row = (
        await pgx.client.query(
          `select a.pid, exists (select 1 from pg_locks as l where l.pid = a.pid and l.mode = 'RowExclusiveLock' and l.relation = 'gpuledger.cost_daily'::regclass) as wrote_cost
           from pg_stat_activity as a where a.application_name = 'gpuledger export' and a.wait_event_type = 'Lock'`,
        )
      ).rows[0];
      if (row) {
        expect(row.wrote_cost).toBe(true);
        return row.pid as number;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the export never reached the locked table');
  };
  const exportSessionsGone = async () => {
    for (let i = 0; i < 300; i++) {
      const n = (await pgx.client.query(`select count(*)::int as n from pg_stat_activity where application_name = 'gpuledger export'`)).rows[0].n;
      if (n === 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the killed export still has a session');
  };
  /** A session of our own holding freshness – the export's last table – so an export stops there, mid-way. */
  const lockFreshness = async () => {
    const locker = await pgx.server.connect();
    await locker.query('begin');
    await locker.query('lock table gpuledger.freshness in access exclusive mode');
    return locker;
  };

  beforeAll(async () => {
    // the first sync (at the simulator's now) is the run's synced database (pgx.tmp.db); the next syncs on from it
    const first = await exportCli(pgx.server.password).done;
    expect(first.stderr).toMatch(/exported to postgres:\/\/127\.0\.0\.1:\d+\/postgres \(schema gpuledger\): export 1/);
    expect(first.code).toBe(0);
    await sync('2026-11-20T13:50:00Z');
  }, 180_000);

  it('a wrong password: exit 2, one line naming the variable (not the value), previous export intact', async () => {
    const before = await snapshot();
    const r = await exportCli(WRONG).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gpuledger: PostgreSQL at postgres:\/\/127\.0\.0\.1:\d+\/postgres refused the password of user gpuledger_test \(read from PGPASSWORD\); nothing was exported\n$/);
    expect(await snapshot()).toEqual(before);
  });

  it('an unreachable server: exit 1, one line', async () => {
    const port = await closedPort();
    const r = await start(['export', 'postgres', '--url', `postgres://gpuledger_test@127.0.0.1:${port}/postgres`], { PGPASSWORD: pgx.server.password }).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^gpuledger: cannot reach PostgreSQL at postgres://127\\.0\\.0\\.1:${port}/postgres \\(ECONNREFUSED\\); nothing was exported\\n$`));
  });

  it('a password inside --url is refused without repeating it: exit 2', async () => {
    const url = pgx.server.url.replace('gpuledger_test@', `gpuledger_test:${pgx.server.password}@`);
    const r = await start(['export', 'postgres', '--url', url], {}).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gpuledger: --url carries a password; leave it out of the URL and set it in the environment \(PGPASSWORD, or the variable export\.postgres\.passwordEnv names\)\n$/);
  });

  it('an export killed with SIGKILL part-way leaves the previous export, and the next run finishes the job', async () => {
    const before = await snapshot();
    const locker = await lockFreshness();
    const running = exportCli(pgx.server.password);
    const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`gpuledger-pg-export-${running.child.pid}-`));
    try {
      await blockedMidExport();
      running.child.kill('SIGKILL');
      expect((await running.done).signal).toBe('SIGKILL');
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    await exportSessionsGone();
    expect(await snapshot()).toEqual(before);
    expect(await costMatchesDuckDb()).toBe(false);
    // the killed export's CSV folder is left behind; the next export clears it
    expect(leftovers()).toHaveLength(1);

    const rerun = await exportCli(pgx.server.password, ['--log-level', 'debug']).done;
    expect(rerun.code).toBe(0);
    expect(await costMatchesDuckDb()).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('a server stopped part-way: exit 1, one line; after a restart the previous export is there and a rerun finishes', async () => {
    await sync('2026-11-20T15:10:00Z');
    const before = await snapshot();
    const locker = await lockFreshness();
    const running = exportCli(pgx.server.password);
    await blockedMidExport();
    await pgx.client.end();
    await pgx.server.halt('fast');
    const r = await running.done;
    await locker.end().catch(() => {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gpuledger: PostgreSQL at postgres:\/\/127\.0\.0\.1:\d+\/postgres went away during the export \(.+\); nothing of this run was committed and the previous export is intact – run the export again\n$/);

    await pgx.server.restart();
    pgx.client = await pgx.server.connect();
    expect(await snapshot()).toEqual(before);
    const rerun = await exportCli(pgx.server.password).done;
    expect(rerun.code).toBe(0);
    expect(await costMatchesDuckDb()).toBe(true);
  }, 120_000);

  it('never shows the password: not in any output above, not in any table of the schema', async () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const text of outputs) {
      expect(text).not.toContain(pgx.server.password);
      expect(text).not.toContain(WRONG);
    }
    const tables = (await pgx.client.query(`select tablename from pg_tables where schemaname = 'gpuledger'`)).rows.map((r) => r.tablename as string);
    expect(tables).toEqual(expect.arrayContaining(['cost_daily', '_export_runs', 'freshness']));
    for (const t of tables) {
      const hits = (await pgx.client.query(`select count(*)::int as n from gpuledger.${t} as t where strpos(t::text, $1) > 0`, [pgx.server.password])).rows[0].n;
      expect(hits, t).toBe(0);
    }
  });

  it('in the nightly job, a failed export makes the run partial (exit 3) and a working one is a step like the others', async () => {
    const config = (password: string) =>
      parseConfig({ ...smallSyncConfig(sim, { outDir: pgx.tmp.dir }), alerts: { channels: [{ type: 'file' }] }, export: { postgres: { url: pgx.server.url, passwordEnv: 'GPULEDGER_TEST_NIGHTLY_PG' } } }, 'test');
    const nightly = async (password: string) => {
      process.env.GPULEDGER_TEST_NIGHTLY_PG = password;
      const c = config(password);
      return runNightly({ config: c, dbPath: pgx.tmp.db, accounts: resolveAccounts(c, c.apiUrl, { GPULEDGER_TEST_KEY: KEY }), log: silentLogger, client: { initialRatePerSecond: 1000 } });
    };
    const failed = await nightly(WRONG);
    expect(failed.steps.find((s) => s.step === 'export')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/refused the password/) });
    expect(failed.steps.find((s) => s.step === 'sync')?.status).toBe('ok');
    expect(failed.exitCode).toBe(3);

    const ok = await nightly(pgx.server.password);
    expect(ok.steps.find((s) => s.step === 'export')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^PostgreSQL postgres:\/\/.* \(schema gpuledger\): export \d+, \d+ day slice\(s\) rewritten/) });
    expect(ok.exitCode).toBe(0);
    delete process.env.GPULEDGER_TEST_NIGHTLY_PG;
  }, 180_000);
});
