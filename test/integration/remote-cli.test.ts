// No remote holds `gpuledger sync` hostage, and what a user typed into a URL never reaches the database (issue 18 §5,
// §8), through the real CLI: a host that accepts and never answers, a run out of budget, a queue API that never
// answers or answers HTML, https:// to a plain-HTTP port, and URLs with a password in them.
// The three groups run side by side (each has its own servers and database; the tests of a group run in order): the
// first spends ~36 s waiting out three default 10-s deadlines, which the other two fill instead of leaving a worker idle.
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { html, scriptedServer } from '../helpers/scripted-server.ts';
import { gpuledger } from '../helpers/cli.ts';
import { expectMatchesLedger, KEY, openTestStore, smallSyncConfig, writeConfig } from '../helpers/sync.ts';
import { closeServer, listenOnLoopback } from '../helpers/loopback.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

/** Accepts every connection, reads what is sent and never answers; counts the requests that arrived. */
async function silentServer(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (d) => requests.push(...(d.toString('latin1').match(/^(GET|POST) \S+/gm) ?? [])));
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      closeServer(server, () => {
        for (const s of sockets) s.destroy();
      }),
  };
}

/** The store's lock files beside the database: none may outlive the run that took them. */
const locksOf = (db: string) => readdirSync(dirname(db)).filter((f) => f.startsWith(basename(db)) && f.endsWith('.lock'));
const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
/** stderr without the progress lines a sync writes when stderr is not a terminal. */
const problems = (text: string) => lines(text).filter((l) => !/^\S+ info /.test(l));

describe.concurrent('gpuledger sync against remotes that do not answer', () => {
  const remote = suiteFixture(() =>
    simulatedAccount('gpuledger-remote-', async ({ sim, tmp }) => ({ config: writeConfig(tmp.dir, smallSyncConfig(sim)), silent: await silentServer() })),
  );

  // the default deadlines, breaker and budget, nothing configured: the case of issue 18 (1,296 s before)
  it.sequential('ends a default sync against a host that accepts and never answers with exit 3 in one line, releases its lock, and the next sync completes', async () => {
    const r = await gpuledger(['--db', remote.tmp.db, '--api-url', remote.silent.url, 'sync'], { RUNPOD_API_KEY: KEY });
    expect(r.code).toBe(3);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/default: GET \/v2\/catalog\/gpus: 127\.0\.0\.1:\d+ let 3 requests in a row run out of time, so its other requests in this run are skipped/);
    expect(r.stdout).toMatch(/run [0-9a-f-]+: partial/);
    expect(r.stdout).toMatch(/warning: 127\.0\.0\.1:\d+ stopped answering, so the sync ended early; the next sync reads the rest/);
    // one try per deadline, then the breaker: no request was sent again after the host was given up on
    expect(remote.silent.requests.filter((q) => q === 'GET /v2/catalog/gpus')).toHaveLength(3);
    expect(remote.silent.requests).toHaveLength(3);
    expect(locksOf(remote.tmp.db)).toEqual([]);

    const next = await gpuledger(['--config', remote.config, '--db', remote.tmp.db, 'sync'], { GPULEDGER_TEST_KEY: KEY });
    expect(problems(next.stderr)).toEqual([]);
    expect(next.code).toBe(0);
    expect(next.stdout).toMatch(/run [0-9a-f-]+: success/);
    const store = await openStore({ path: remote.tmp.db, readOnly: true });
    try {
      expect(await store.all('select status from _meta_runs order by started_at')).toEqual([{ status: 'partial' }, { status: 'success' }]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it.sequential('samples each Serverless queue once with a short deadline, and names the endpoints it skipped in one warning', async () => {
    remote.silent.requests.length = 0;
    const r = await gpuledger(['--config', remote.config, '--db', remote.tmp.db, '--queue-api-url', remote.silent.url, 'sync', '--source', 'health'], { GPULEDGER_TEST_KEY: KEY });
    expect(r.code).toBe(0);
    const warnings = lines(r.stderr);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/sim: queue health not sampled for (\d) of \1 endpoint\(s\) \([^)]+\): GET \/v2\/\S+\/health failed after 1 attempts; last: UND_ERR_HEADERS_TIMEOUT/);
    expect(r.stdout).toContain(`warning: ${warnings[0]!.replace(/^.*?sim: queue health/, 'sim: queue health')}`);
    // at most one try per endpoint, and none once the queue host was given up on
    const health = remote.silent.requests.filter((q) => q.endsWith('/health'));
    expect(new Set(health).size).toBe(health.length);
    expect(health).toHaveLength(3);
    expect(locksOf(remote.tmp.db)).toEqual([]);
  }, 120_000);
});

describe.concurrent('gpuledger sync with a budget', () => {
  // answers, but slowly: no deadline of a request is ever reached, only the run's budget
  const budget = suiteFixture(() => simulatedAccount('gpuledger-budget-', () => ({}), { faults: { latencyMs: 300 } }));

  it.sequential('stops fetching when sync.budgetMinutes is spent, loads what it read, ends partial, and the next sync reads the rest to the micro-dollar', async () => {
    const sources = ['aggregate', 'pods'];
    const budgeted = writeConfig(budget.tmp.dir, smallSyncConfig(budget.sim, { sync: { ...smallSyncConfig(budget.sim).sync, sources: sources as never, budgetMinutes: 0.03 } }));
    const r = await gpuledger(['--config', budgeted, '--db', budget.tmp.db, 'sync'], { GPULEDGER_TEST_KEY: KEY });
    expect(r.code).toBe(3);
    expect(problems(r.stderr)).toEqual([
      expect.stringMatching(/warn +the sync's budget of 0\.03 min \(sync\.budgetMinutes\) was spent: it stopped fetching and loaded what it had read; the next sync reads the rest$/),
    ]);
    expect(r.stdout).toMatch(/run [0-9a-f-]+: partial/);
    expect(r.stdout).toMatch(/\bstopped\b/);
    expect(locksOf(budget.tmp.db)).toEqual([]);

    const unbudgeted = writeConfig(budget.tmp.dir, smallSyncConfig(budget.sim, { sync: { ...smallSyncConfig(budget.sim).sync, sources: sources as never } }));
    const next = await gpuledger(['--config', unbudgeted, '--db', budget.tmp.db, 'sync'], { GPULEDGER_TEST_KEY: KEY });
    expect(problems(next.stderr)).toEqual([]);
    expect(next.code).toBe(0);
    const store = await openTestStore(budget.tmp.db);
    try {
      expect(await expectMatchesLedger(store, budget.sim, ['aggregate', 'pods'], expect)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe.concurrent('gpuledger sync with a wrong or credentialed URL', () => {
  const remote = suiteFixture(() =>
    simulatedAccount('gpuledger-urls-', async ({ sim, tmp }) => ({ config: writeConfig(tmp.dir, smallSyncConfig(sim)), site: await scriptedServer(html(200)) })),
  );

  it.sequential('fails https:// to a plain-HTTP port at once with one line that suggests http:// (exit 2)', async () => {
    const url = remote.sim.url.replace('http:', 'https:');
    const r = await gpuledger(['--config', remote.config, '--db', remote.tmp.db, '--api-url', url, 'sync', '--source', 'aggregate'], { GPULEDGER_TEST_KEY: KEY });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([`gpuledger: GET /v2/catalog/gpus: ${url} does not speak TLS; did you mean ${remote.sim.url}?`]);
    expect(locksOf(remote.tmp.db)).toEqual([]);
  });

  it.sequential('tells a queue URL that answers HTML to check --queue-api-url', async () => {
    const r = await gpuledger(['--config', remote.config, '--db', remote.tmp.db, '--queue-api-url', remote.site.url, 'sync', '--source', 'health'], { GPULEDGER_TEST_KEY: KEY });
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/queue health not sampled .* does not look like the platform API .*; check --queue-api-url, GPULEDGER_QUEUE_API_URL or queueApiUrl in the config/);
    expect(r.stderr).not.toContain('check --api-url');
  });

  it.sequential('records URLs without their password: nothing in the run log, the output or the logs', async () => {
    const password = 'hunter2-do-not-store-0123';
    const api = remote.sim.url.replace('http://', `http://gpuledger:${password}@`);
    const queue = remote.sim.url.replace('http://', `http://queue-user:${password}-q@`);
    const r = await gpuledger(['--config', remote.config, '--db', remote.tmp.db, '--log-level', 'debug', '--api-url', api, '--queue-api-url', queue, 'sync', '--source', 'aggregate,health'], {
      GPULEDGER_TEST_KEY: KEY,
    });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(password);
    const store = await openStore({ path: remote.tmp.db, readOnly: true });
    try {
      const runs = await store.all<{ run: string; args: string }>('select to_json(r)::varchar as run, args from _meta_runs r');
      expect(runs.length).toBeGreaterThan(0);
      expect(runs.map((x) => x.run).join('\n')).not.toContain(password);
      // no user name either: the one rule for every URL (issue 26 §1, util/url-credentials.ts)
      expect(runs.at(-1)!.args).toContain(`--api-url ${remote.sim.url} `);
      expect(runs.at(-1)!.args).toContain(`--queue-api-url ${remote.sim.url} `);
      expect(runs.map((x) => x.run).join('\n')).not.toMatch(/gpuledger@|queue-user/);
    } finally {
      await store.close();
    }
    expect(existsSync(remote.tmp.db)).toBe(true);
  });
});
