// Alert delivery stopped at any moment (issue 18 §4, "Done when"): `gpuledger alerts` as a child process, killed with
// SIGKILL at seeded random moments while a slow webhook and the NDJSON file channel are being served, then run again
// until it completes. Every event lands in the file exactly once, and the webhook sees every event under one
// idempotency key – a delivery repeated after a kill carries the key it had, so the receiver can drop it. SIGTERM and
// SIGINT let the delivery in flight finish, start none, and end in one line with exit 3; the next run finishes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.ts';
import { gpuledger } from '../helpers/cli.ts';
import { writeConfig } from '../helpers/sync.ts';
import { dollarBudgetsOnly, receiver, syncedDb, type Receiver, type SyncedDb } from '../helpers/alert-delivery.ts';
import { createRng } from '../../src/simulator/prng.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
const SEED = Number(process.env.GPULEDGER_KILL_SEED ?? Date.now() % 100_000);
const EVENTS = 12;

/** Start `gpuledger alerts`; resolves with its exit code and stderr when it ends. */
function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, GPULEDGER_CONFIG: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, ended };
}

describe('alert delivery stopped at any moment', () => {
  let db: SyncedDb;
  beforeAll(async () => {
    db = await syncedDb('gpuledger-alert-kills-');
  }, 120_000);
  afterAll(async () => db?.close());

  const configFor = (tag: string, hook: Receiver) =>
    writeConfig(db.tmp.dir, {
      ...db.base,
      alerts: {
        ...dollarBudgetsOnly(Array.from({ length: EVENTS }, (_, i) => `${tag}${i}`)),
        channels: [
          { type: 'file', path: join(db.tmp.dir, `${tag}.ndjson`) },
          { type: 'webhook', name: 'slow', url: hook.url, retryDelayMs: 10 },
        ],
      },
    } satisfies ConfigInput);

  const fileIds = (tag: string) =>
    readFileSync(join(db.tmp.dir, `${tag}.ndjson`), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { event_id: string }).event_id);

  it(`delivers every event once after SIGKILLs at random moments (seed ${SEED})`, async () => {
    const rng = createRng(SEED); // seeded, so a failing run can be replayed with GPULEDGER_KILL_SEED
    // a webhook that takes 40–120 ms to answer, so kills land while deliveries are in flight
    const hook = await receiver({
      handle: async (_req, res) => {
        await sleep(40 + Math.floor(rng.next() * 80));
        res.end('ok');
      },
    });
    try {
      const config = configFor('k', hook);
      const args = ['--config', config, '--db', db.tmp.db, 'alerts'];
      let kills = 0;
      for (let round = 0; round < 6; round++) {
        const { child, ended } = start(args);
        const before = hook.received.length;
        // kill at a random moment: after 0–6 more webhook deliveries, plus up to 60 ms
        const after = Math.floor(rng.next() * 7);
        const deadline = Date.now() + 20_000;
        while (hook.received.length < before + after && child.exitCode === null && Date.now() < deadline) await sleep(5);
        await sleep(Math.floor(rng.next() * 60));
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          kills++;
        }
        await ended;
      }
      // then run to completion
      const done = await gpuledger(args);
      expect(done.code, done.stderr).toBe(0);
      expect(kills).toBeGreaterThan(0);
      // the file channel: each event exactly once
      const inFile = fileIds('k');
      expect(new Set(inFile).size).toBe(EVENTS);
      expect(inFile).toHaveLength(EVENTS);
      // the webhook: every event arrived, and every repeat carried the key it had the first time
      const keysByEvent = new Map<string, Set<string>>();
      for (const r of hook.received) keysByEvent.set(r.eventId, (keysByEvent.get(r.eventId) ?? new Set()).add(r.key ?? '(none)'));
      expect(keysByEvent.size).toBe(EVENTS);
      for (const keys of keysByEvent.values()) expect(keys.size).toBe(1);
      // a further run owes nothing and sends nothing
      const count = hook.received.length;
      const again = await gpuledger(args);
      expect(again.code).toBe(0);
      expect(hook.received).toHaveLength(count);
    } finally {
      await hook.close();
    }
  }, 180_000);

  it.each(['SIGTERM', 'SIGINT'] as const)('%s lets the delivery in flight finish, starts none, says so in one line and exits 3; the next run finishes', async (signal) => {
    const tag = signal.toLowerCase();
    const hook = await receiver({
      handle: async (_req, res) => {
        await sleep(150);
        res.end('ok');
      },
    });
    try {
      const args = ['--config', configFor(tag, hook), '--db', db.tmp.db, 'alerts'];
      const { child, ended } = start(args);
      while (hook.received.length < 2 && child.exitCode === null) await sleep(5);
      child.kill(signal);
      const stopped = await ended;
      expect(stopped.code).toBe(3);
      const lines = stopped.stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(new RegExp(`^gpuledger: ${signal}: stopped delivering alerts; \\d+ deliver(y|ies) acknowledged and recorded, \\d+ deliver(y|ies) still owed \\(they go out on the next run\\)$`));
      expect(hook.received.length).toBeLessThan(EVENTS);
      const done = await gpuledger(args);
      expect(done.code, done.stderr).toBe(0);
      // this config's budgets fire (EVENTS) and the earlier test's resolve: every one arrived exactly once
      const ids = hook.received.map((r) => r.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(EVENTS);
      expect(fileIds(tag).sort()).toEqual([...ids].sort());
    } finally {
      await hook.close();
    }
  }, 120_000);
});
