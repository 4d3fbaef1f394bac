// `gpuledger alerts` as a user runs it: the database is published and let go before any channel is reached (a
// reader opens it while the webhook is being called, and no lock is held), and a dead webhook keeps the exit code at 3
// on every run until its events are delivered or expire – never "0 to announce" and exit 0.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.ts';
import { lockPathFor } from '../../src/store/lock.ts';
import { withReader } from '../../src/store/shared-database.ts';
import { gpuledger } from '../helpers/cli.ts';
import { writeConfig } from '../helpers/sync.ts';
import { closedPort, receiver, syncedDb, type SyncedDb } from '../helpers/alert-delivery.ts';

describe('gpuledger alerts and its channels', () => {
  let db: SyncedDb;
  beforeAll(async () => {
    db = await syncedDb('gpuledger-alerts-cli-');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  const configFile = (name: string, budgets: string[], url: string) =>
    writeConfig(db.tmp.dir, {
      ...db.base,
      alerts: {
        anomaly: { enabled: false },
        dataQuality: { enabled: false },
        waste: { enabled: false },
        budgets: budgets.map((b) => ({ name: b, amount: '1.00', thresholds: [100], on: ['actual'] })),
        channels: [{ type: 'webhook', name, url, retryDelayMs: 10 }],
      },
    } satisfies ConfigInput);

  it('does not hold the database while the webhook is called: a reader opens it and sees the events, and no lock is held', async () => {
    const seen: { lockHeld: boolean; events: number }[] = [];
    const hook = await receiver({
      handle: async (_req, res) => {
        const lockHeld = existsSync(lockPathFor(db.tmp.db));
        const events = await withReader(db.tmp.db, async (s) => (await s.one<{ n: number }>('select count(*)::integer as n from _meta_alert_events'))!.n);
        seen.push({ lockHeld, events });
        res.end('ok');
      },
    });
    try {
      const r = await gpuledger(['--config', configFile('live', ['held1', 'held2'], hook.url), '--db', db.tmp.db, 'alerts']);
      expect(r.stderr).not.toMatch(/failed/);
      expect(r.code).toBe(0);
      expect(seen).toHaveLength(2);
      // the events were recorded and published before delivery began
      expect(seen).toEqual([{ lockHeld: false, events: 2 }, { lockHeld: false, events: 2 }]);
    } finally {
      await hook.close();
    }
  }, 60_000);

  it('exits 3 with a dead webhook, and again on the next run, naming what is still pending', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    const config = configFile('dead', ['dead1', 'dead2', 'dead3'], url);
    const first = await gpuledger(['--config', config, '--db', db.tmp.db, 'alerts']);
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/webhook:dead: \d+ pending, oldest from \d{4}-\d\d-\d\dT/);
    const second = await gpuledger(['--config', config, '--db', db.tmp.db, 'alerts']);
    expect(second.stderr).toMatch(/0 to announce/);
    expect(second.stderr).toMatch(/webhook:dead: \d+ pending, oldest from \d{4}-\d\d-\d\dT/);
    expect(second.code).toBe(3);
  }, 60_000);
});
