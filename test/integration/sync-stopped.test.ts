// A sync stopped with SIGTERM never exits 0 (issue 26 §7): stopped while it waits for the lock, while it reads the
// inventory, the billing routes or the queue's health, or as it finishes, the real CLI ends with exit 1 or 3 and a
// line saying it was stopped – never "success" – and the database it leaves is one the next sync completes to the
// micro-dollar of the simulator's ledger.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acquireSyncLock } from '../../src/store/lock.ts';
import { gpuledger, startGpuledger, type CliEnd } from '../helpers/cli.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { expectMatchesLedger, fastSimulator, KEY, openTestStore, smallSyncConfig, writeConfig } from '../helpers/sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const HEALTH = '/v2/{endpoint_id}/health';

describe('a sync stopped with SIGTERM', () => {
  const sim = suiteFixture(() => fastSimulator());

  const requests = (route: string) => sim.stats().byRoute[route] ?? 0;

  /** Start a sync and send SIGTERM once `when` holds (polled), then wait until it has ended. */
  async function stopWhen(args: string[], when: (stderr: string) => boolean): Promise<CliEnd> {
    // every answer slowed down, so each phase of the sync lasts long enough to be stopped in
    sim.setFaults('latency=200ms');
    const sync = startGpuledger(args, { GPULEDGER_TEST_KEY: KEY });
    let exited = false;
    void sync.ended.then(() => (exited = true));
    const deadline = Date.now() + 60_000;
    while (!exited && !when(sync.stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    sync.child.kill('SIGTERM');
    try {
      return await sync.ended;
    } finally {
      sim.setFaults(undefined);
    }
  }

  /** Requests the simulator has served on each route since now: its counters are shared by the rows. */
  function counterFromNow(): (route: string) => number {
    const at = sim.stats().byRoute;
    return (route) => requests(route) - (at[route] ?? 0);
  }

  /** The stopped run is logged as partial or failed, and the next sync completes it to the micro-dollar. */
  async function expectCompletedAfterwards(db: string, config: string, stopped: CliEnd): Promise<void> {
    const store = await openTestStore(db);
    try {
      const runs = await store.all<{ status: string }>(`select status from _meta_runs order by started_at`);
      expect(runs.map((r) => r.status)).toEqual([stopped.code === 3 ? 'partial' : 'failed']);
    } finally {
      await store.close();
    }
    const again = await gpuledger(['--config', config, '--db', db, 'sync'], { GPULEDGER_TEST_KEY: KEY });
    expect(again.code, again.stderr).toBe(0);
    const after = await openTestStore(db);
    try {
      expect(await expectMatchesLedger(after, sim, ['aggregate', 'pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'], expect)).toBeGreaterThan(0);
    } finally {
      await after.close();
    }
  }

  it.each([
    ['while it reads the inventory', (n: (route: string) => number) => n('/v2/pods') >= 1],
    ['while it reads the billing routes', (n: (route: string) => number) => n('/v2/billing/pods') >= 1],
    // every range is read by then: this one used to end "success", exit 0
    ['while it samples the queue health', (n: (route: string) => number) => n(HEALTH) >= 1],
  ])('%s: exit 3 or 1 with a line saying so, and the next sync completes it', async (_moment, reached) => {
    const tmp = tempDir();
    try {
      const config = writeConfig(tmp.dir, smallSyncConfig(sim));
      const n = counterFromNow();
      const stopped = await stopWhen(['--config', config, '--db', tmp.db, 'sync'], () => reached(n));
      expect(stopped.signal).toBeNull();
      expect([1, 3]).toContain(stopped.code);
      expect(stopped.stderr).toMatch(/warn +SIGTERM: stopping after the request in flight/);
      expect(stopped.stdout).toMatch(/warning: the sync was stopped by SIGTERM before it finished: what was read is loaded; the next sync reads the rest/);
      expect(stopped.stdout).not.toMatch(/: success ·/);
      await expectCompletedAfterwards(tmp.db, config, stopped);
    } finally {
      tmp.cleanup();
    }
  });

  it('as it finishes (every queue endpoint sampled): never exit 0', async () => {
    const tmp = tempDir();
    try {
      const config = writeConfig(tmp.dir, smallSyncConfig(sim));
      const n = counterFromNow();
      // the small account's Serverless endpoints whose queue a sync samples (too few and the sync ends on its own: exit 0, failing here)
      const stopped = await stopWhen(['--config', config, '--db', tmp.db, 'sync'], () => n(HEALTH) >= 3);
      // the signal may come after the command let go of it, as the process ends: then it is ended by the signal
      expect(stopped.code).not.toBe(0);
      if (stopped.signal === null) {
        expect(stopped.code).toBe(3);
        expect(stopped.stderr).toMatch(/SIGTERM/);
      }
    } finally {
      tmp.cleanup();
    }
  });

  it('while it waits for the lock: exit 1, nothing read', async () => {
    const tmp = tempDir();
    const config = writeConfig(tmp.dir, smallSyncConfig(sim));
    const holder = await acquireSyncLock(tmp.db, { command: 'test' });
    try {
      const n = counterFromNow();
      const stopped = await stopWhen(['--config', config, '--db', tmp.db, 'sync', '--wait', '60'], (stderr) => /waiting up to \d+ s/.test(stderr));
      expect(stopped.code).toBe(1);
      expect(stopped.stderr.trim().split('\n').at(-1)).toBe('gpuledger: SIGTERM: the sync was stopped before it read anything; nothing was changed');
      expect(n('/v2/pods') + n('/v2/billing/pods')).toBe(0);
      expect(existsSync(tmp.db)).toBe(false);
    } finally {
      holder.release();
      tmp.cleanup();
    }
  });
});
