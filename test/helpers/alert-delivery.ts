// Shared pieces of the alert delivery tests: a synced simulator database, a config that fires a known number of
// budget alerts, webhook receivers on 127.0.0.1 that count idempotency keys, and a port nobody listens on.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/load.ts';
import type { Config, ConfigInput } from '../../src/config/schema.ts';
import type { Simulator } from '../../src/simulator/index.ts';
import { fastSimulator, smallSyncConfig } from './sync.ts';
import { copySyncedDatabase } from './synced-fixture.ts';
import { tempDir, type TempDir } from './temp-dir.ts';
import { closeServer, listenOnLoopback } from './loopback.ts';

type AlertsInput = NonNullable<ConfigInput['alerts']>;

/**
 * Alert rules of nothing but budgets of $1.00 that fire at 100 % of actual spend (every synced account spends more):
 * one event per name, every other rule switched off so only the budgets cost evaluation time.
 */
export function dollarBudgetsOnly(names: readonly string[]): Pick<AlertsInput, 'anomaly' | 'dataQuality' | 'waste' | 'runway' | 'unitCost' | 'budgets'> {
  return {
    anomaly: { enabled: false },
    dataQuality: { enabled: false },
    waste: { enabled: false },
    runway: { enabled: false },
    unitCost: { enabled: false },
    budgets: names.map((name) => ({ name, amount: '1.00', thresholds: [100], on: ['actual'] })),
  };
}

export class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

export interface SyncedDb {
  sim: Simulator;
  tmp: TempDir;
  base: ConfigInput;
  close(): Promise<void>;
}

/** A simulator account synced into tmp.db, the file closed again (so a CLI or a writer session can open it). */
export async function syncedDb(prefix: string): Promise<SyncedDb> {
  const sim = await fastSimulator();
  const tmp = tempDir(prefix);
  const base = smallSyncConfig(sim, { outDir: tmp.dir });
  // the run's synced database: what syncing this simulator gives, synced once per run (synced-fixture.ts)
  await copySyncedDatabase(tmp.db);
  return { sim, tmp, base, close: async () => { await sim.close(); tmp.cleanup(); } };
}

/** Only budget rules, each far exceeded, so every budget name fires; the given channels. */
export function budgetConfig(base: ConfigInput, budgets: string[], channels: NonNullable<ConfigInput['alerts']>['channels'], outbox?: { maxAgeHours?: number; budgetSeconds?: number }): Config {
  return parseConfig(
    {
      ...base,
      alerts: {
        anomaly: { enabled: false },
        dataQuality: { enabled: false },
        waste: { enabled: false },
        budgets: budgets.map((name) => ({ name, amount: '1.00', thresholds: [100], on: ['actual'] })),
        channels,
        ...(outbox ? { outbox } : {}),
      },
    },
    'test',
  );
}

export interface Received {
  key: string | undefined;
  eventId: string;
  body: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** How many POSTs carried each idempotency key. */
  keyCounts(): Map<string, number>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

/** A webhook receiver on 127.0.0.1 (port 0, or the port given); `handle` may answer instead of the default 200. */
export async function receiver(options: { port?: number; handle?: Handler } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString();
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push({ key: req.headers['idempotency-key'] as string | undefined, eventId: String(req.headers['x-gpuledger-event-id']), body });
      if (options.handle) await options.handle(req, res, text);
      else res.end('ok');
    });
  });
  const port = await listenOnLoopback(server, options.port);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    keyCounts: () => {
      const counts = new Map<string, number>();
      for (const r of received) counts.set(r.key ?? '(none)', (counts.get(r.key ?? '(none)') ?? 0) + 1);
      return counts;
    },
    close: () => closeServer(server),
  };
}

/** A loopback port that was free a moment ago and now has nobody listening: connecting is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listenOnLoopback(server);
  await closeServer(server);
  return port;
}
