// The per-channel outbox on a synced simulator database: what a channel could not take goes out on a later run once
// it answers, oldest first and exactly once per channel; what waits too long expires with its reason; a dead webhook
// costs one connection attempt, not attempts × events; and channels deliver at the same time.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { flatten, parseMime, startSmtp } from '../helpers/smtp.ts';
import { budgetConfig, closedPort, Collect, receiver, syncedDb, type SyncedDb } from '../helpers/alert-delivery.ts';

const HOUR = 3_600_000;

describe('the alert outbox', () => {
  let db: SyncedDb;
  let store: Store;
  beforeAll(async () => {
    db = await syncedDb('gpuledger-outbox-');
    store = await openStore({ path: db.tmp.db, command: 'test' });
  }, 120_000);
  // each test starts with no alert history: budgets of an earlier test would resolve, and its channels expire
  beforeEach(async () => {
    for (const t of ['_meta_alert_outbox', '_meta_alert_deliveries', '_meta_alert_events', '_meta_alert_state']) await store.run(`delete from ${t}`);
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });
  const run = (config: ReturnType<typeof budgetConfig>, now?: Date) => runAlerts({ store, config, outDir: db.tmp.dir, stdout: new Collect(), ...(now ? { now } : {}) });

  it('delivers events that failed while the webhook was down on the next run once it is up: oldest first, each exactly once', async () => {
    const port = await closedPort();
    const hook = [{ type: 'webhook' as const, name: 'ops', url: `http://127.0.0.1:${port}/hook`, retryDelayMs: 10 }];
    const t0 = Date.now();
    const first = await run(budgetConfig(db.base, ['a1', 'a2'], hook), new Date(t0 - 2 * HOUR));
    expect(first.events).toHaveLength(2);
    expect(first.failedChannels.map((c) => c.channel)).toEqual(['webhook:ops']);
    expect(first.pending).toEqual([{ channel: 'webhook:ops', events: 2, oldest: new Date(t0 - 2 * HOUR) }]);
    // an hour later a new alert, and the webhook is still down
    const second = await run(budgetConfig(db.base, ['a1', 'a2', 'b1'], hook), new Date(t0 - HOUR));
    expect(second.events.map((e) => e.key)).toEqual([expect.stringMatching(/^budget:b1:/)]);
    expect(second.pending).toEqual([{ channel: 'webhook:ops', events: 3, oldest: new Date(t0 - 2 * HOUR) }]);

    // the receiver is back on the same port: nothing new to announce, but three events are owed
    const up = await receiver({ port });
    try {
      const third = await run(budgetConfig(db.base, ['a1', 'a2', 'b1'], hook));
      expect(third.events).toEqual([]);
      expect(third.pending).toEqual([]);
      expect(third.failedChannels).toEqual([]);
      expect(up.received.map((r) => r.eventId)).toEqual([...first.events, ...second.events].map((e) => e.eventId));
      for (const r of up.received) {
        expect(r.key).toBe(r.eventId);
        expect(r.body.idempotency_key).toBe(r.eventId);
      }
      // a fourth run owes nothing and sends nothing
      const fourth = await run(budgetConfig(db.base, ['a1', 'a2', 'b1'], hook));
      expect(fourth.pending).toEqual([]);
      expect([...up.keyCounts().values()]).toEqual([1, 1, 1]);
      const rows = await store.all<{ status: string; n: number }>(
        `select status, count(*)::integer as n from _meta_alert_outbox where channel = 'webhook:ops' group by all`,
      );
      expect(rows).toEqual([{ status: 'sent', n: 3 }]);
    } finally {
      await up.close();
    }
  });

  it('expires an event nobody took within alerts.outbox.maxAgeHours and records why', async () => {
    const port = await closedPort();
    const hook = [{ type: 'webhook' as const, name: 'late', url: `http://127.0.0.1:${port}/hook`, retryDelayMs: 10 }];
    const first = await run(budgetConfig(db.base, ['x1'], hook, { maxAgeHours: 72 }), new Date(Date.now() - 80 * HOUR));
    expect(first.pending.map((p) => p.channel)).toEqual(['webhook:late']);
    const up = await receiver({ port });
    try {
      const later = await run(budgetConfig(db.base, ['x1'], hook, { maxAgeHours: 72 }));
      expect(later.expired).toEqual([{ channel: 'webhook:late', events: 1, reason: expect.stringMatching(/^not delivered within 72 h \(last error: .*ECONNREFUSED/) }]);
      expect(later.pending).toEqual([]);
      expect(up.received).toEqual([]);
      const row = await store.one<{ status: string; expired_reason: string }>(
        `select status, expired_reason from _meta_alert_outbox where event_id = $1 and channel = 'webhook:late'`,
        [first.events[0]!.eventId],
      );
      expect(row).toEqual({ status: 'expired', expired_reason: expect.stringMatching(/^not delivered within 72 h/) });
    } finally {
      await up.close();
    }
  });

  it('stops at the first refused connection: 30 events to a closed port cost one attempt and all stay pending', async () => {
    const port = await closedPort();
    const names = Array.from({ length: 30 }, (_, i) => `dead${i}`);
    // default retries (4 attempts, 1 s apart): without the breaker this is minutes
    const result = await run(budgetConfig(db.base, names, [{ type: 'webhook', name: 'dead', url: `http://127.0.0.1:${port}/hook` }]));
    expect(result.events).toHaveLength(30);
    expect(result.failedChannels).toEqual([{ channel: 'webhook:dead', error: expect.stringMatching(/30 of 30 event\(s\) not delivered: .*ECONNREFUSED.*; circuit open/) }]);
    const rows = await store.one<{ pending: number; attempts: number; tried: number }>(
      `select count(*) filter (status = 'pending')::integer as pending, sum(attempts)::integer as attempts, count(*) filter (attempts > 0)::integer as tried
         from _meta_alert_outbox where channel = 'webhook:dead'`,
    );
    expect(rows).toEqual({ pending: 30, attempts: 1, tried: 1 });
    expect(result.pending.find((p) => p.channel === 'webhook:dead')?.events).toBe(30);
  }, 60_000);

  it('delivers to every channel at the same time', async () => {
    // each receiver holds its answer until the other has a request too (or 5 s pass): one after another never overlaps
    const inFlight = [false, false];
    const overlapped = [false, false];
    const hold = (me: number) => async (_req: unknown, res: { end(s: string): void }) => {
      inFlight[me] = true;
      for (let i = 0; i < 500 && !inFlight[1 - me]; i++) await new Promise((r) => setTimeout(r, 10));
      overlapped[me] = inFlight[1 - me]!;
      res.end('ok');
    };
    const one = await receiver({ handle: hold(0) });
    const two = await receiver({ handle: hold(1) });
    try {
      const result = await run(
        budgetConfig(db.base, ['c1'], [
          { type: 'webhook', name: 'one', url: one.url },
          { type: 'webhook', name: 'two', url: two.url },
        ]),
      );
      expect(result.failedChannels).toEqual([]);
      expect(overlapped).toEqual([true, true]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('emails the backlog as one message whose Message-ID and headers name the events, once', async () => {
    const port = await closedPort();
    const mailConfig = (smtpPort: number) =>
      budgetConfig({ ...db.base, smtp: { host: '127.0.0.1', port: smtpPort, from: 'gpuledger <alerts@example.com>' } }, ['m1', 'm2'], [
        { type: 'email', to: ['oncall@example.com'] },
      ]);
    const down = await runAlerts({ store, config: mailConfig(port), outDir: db.tmp.dir });
    expect(down.pending.find((p) => p.channel === 'email')?.events).toBe(2);
    const smtp = await startSmtp();
    try {
      const up = await runAlerts({ store, config: mailConfig(smtp.port), outDir: db.tmp.dir });
      expect(up.pending).toEqual([]);
      expect(smtp.received).toHaveLength(1);
      const headers = parseMime(smtp.received[0]!.raw).headers;
      expect(headers['message-id']).toMatch(/^<alerts-[0-9a-f]{32}@gpuledger>$/);
      expect(headers['x-gpuledger-event-ids']!.split(', ').sort()).toEqual(down.events.map((e) => e.eventId).sort());
      const text = flatten(parseMime(smtp.received[0]!.raw)).find((p) => p.contentType.startsWith('text/plain'))!.body.toString();
      for (const e of down.events) expect(text).toContain(e.title);
      await runAlerts({ store, config: mailConfig(smtp.port), outDir: db.tmp.dir });
      expect(smtp.received).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });
});
