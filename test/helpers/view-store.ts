// Given rows for SQL tests (STYLE.md §14): a real DuckDB file with the real schema and views, and small writers for
// the raw billing tables and inventory versions.
import { copyFileSync, existsSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/database.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { suiteFixture } from './suite-fixture.ts';
import { tempDir, type TempDir } from './temp-dir.ts';

export const tmpDbPath = (prefix = 'gpuledger-views-'): string => join(tempDir(prefix).dir, 'test.duckdb');

// Migrating a new file and creating every view takes 1–2 s; opening a copy of one made so takes well under 0.1 s
// (migrations and views are already current), and SQL tests open a fresh store for nearly every test. One template
// per test file (per worker under test:quick, which shares modules across files), made by the same openStore, so a
// copy is what a new store would have been.
let template: Promise<string> | undefined;

/** Puts a just-migrated database (every migration and view, no rows) at `path` unless a file is there already. */
export async function copyMigratedStore(path: string): Promise<void> {
  if (existsSync(path)) return;
  template ??= (async () => {
    const file = tmpDbPath('gpuledger-views-template-');
    const store = await openStore({ path: file, command: 'test' });
    await store.close();
    return file;
  })().catch((e: unknown) => {
    template = undefined;
    throw e;
  });
  const file = await template;
  copyFileSync(file, path);
  if (existsSync(`${file}.wal`)) copyFileSync(`${file}.wal`, `${path}.wal`);
}

/** A new store at `path` as openStore makes it (migrated, every view), opened from the worker's template copy. */
export async function openMigratedStore(path: string): Promise<Store> {
  await copyMigratedStore(path);
  return openStore({ path, command: 'test' });
}

/** The store a test reads through: each read goes to whatever `current` holds then, its methods bound to it. */
function storeStandIn(current: () => Store): Store {
  return new Proxy({} as Store, {
    get: (_, key) => {
      const store = current();
      const value: unknown = Reflect.get(store, key);
      return typeof value === 'function' ? value.bind(store) : value;
    },
  });
}

/**
 * A fresh viewStore for each test of the calling describe block, given its rows by `prepare`, and closed after the test.
 * The stand-in returned reads the current test's store, so the tests name it as they would the store itself.
 */
export function viewStoreEachTest(prepare?: (store: Store) => Promise<void>): Store {
  let current: Store | undefined;
  beforeEach(async () => {
    current = await viewStore();
    await prepare?.(current);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return storeStandIn(() => {
    if (!current) throw new Error('a test store is read outside a test');
    return current;
  });
}

/**
 * One viewStore for all the tests of the calling describe block (they read the same rows), given its rows by `prepare`
 * in a beforeAll and closed after the block; a `prepare` that fails closes it at once.
 */
export function viewStoreForSuite(prepare?: (store: Store) => Promise<void>): Store {
  const fixture = suiteFixture(async () => {
    const store = await viewStore();
    try {
      await prepare?.(store);
    } catch (e) {
      await store.close();
      throw e;
    }
    return { store, stop: () => store.close() };
  });
  return storeStandIn(() => fixture.store);
}

/**
 * A temp folder holding a new migrated store (at `tmp.db`), then `prepare` on it (rows to read); `stop` closes the
 * store and removes the folder, and a `prepare` that fails does so at once.
 */
export async function migratedTempStore<T extends object = object>(
  prefix: string,
  prepare: (at: { tmp: TempDir; store: Store }) => Promise<T> | T = () => ({}) as T,
): Promise<{ tmp: TempDir; store: Store; stop(): Promise<void> } & T> {
  const tmp = tempDir(prefix);
  let store: Store | undefined;
  const stop = async () => {
    await store?.close();
    tmp.cleanup();
  };
  try {
    store = await openMigratedStore(tmp.db); // the worker's migrated template, copied
    return { tmp, store, stop, ...(await prepare({ tmp, store })) };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * A writable store whose reads (and close) first bring the materialised tables up to date when something was written since –
 * what a real writing session does before it publishes – so a test can insert rows and read views in any order.
 */
export async function viewStore(path = tmpDbPath()): Promise<Store> {
  const store = await openMigratedStore(path);
  let written = false;
  const settled = async () => {
    if (written) {
      written = false;
      await refreshMaterialized(store);
    }
  };
  return {
    ...store,
    async run(sql, params) {
      await store.run(sql, params);
      written = true;
    },
    async all(sql, params) {
      await settled();
      return store.all(sql, params);
    },
    async one(sql, params) {
      await settled();
      return store.one(sql, params);
    },
    // a test that writes and closes leaves a file other processes read: refreshed, as a publishing session leaves it
    async close() {
      await settled();
      await store.close();
    },
  };
}

type Amount = number | string;
const dec = (x: Amount | undefined) => String(x ?? 0);

/**
 * Inserts rows with one statement per 200 rows, in one transaction: `values` is one row's tuple with its parameters
 * numbered from $1, `rows` each row's parameters. One insert (and one commit) per row took ~3.5 ms a row: 568
 * pod-days cost 2 s of a test that judges them in 0.3 s (test/alert/anomaly-habits.test.ts spent most of its time so).
 */
async function insertRows(store: Store, insert: string, values: string, rows: readonly (string | null)[][]): Promise<void> {
  if (rows.length === 0) return;
  const per = values.match(/\$\d+/g)!.length;
  await store.transaction(async () => {
    for (let start = 0; start < rows.length; start += 200) {
      const chunk = rows.slice(start, start + 200);
      const tuples = chunk.map((_, r) => values.replace(/\$(\d+)/g, (_m, d: string) => `$${r * per + Number(d)}`));
      await store.run(`${insert} values ${tuples.join(', ')}`, chunk.flat());
    }
  });
}
const addHours = (iso: string, h: number) => new Date(new Date(iso).getTime() + h * 3_600_000).toISOString();
const endOf = (start: string, size: string) =>
  size === 'hour' ? addHours(start, 1) : size === 'day' ? addHours(start, 24) : size === 'week' ? addHours(start, 168) : undefined;

export interface PodBill {
  account?: string;
  size?: string;
  start: string;
  end?: string;
  pod: string;
  gpu?: Amount;
  cpu?: Amount;
  disk?: Amount;
}

export async function billPods(store: Store, bills: PodBill[]): Promise<void> {
  await insertRows(store, 'insert into raw_billing_pods', `($1, $2, $3::timestamptz, $4::timestamptz, $5, $6::decimal(18,6), $7::decimal(18,6), $8::decimal(18,6), $9::decimal(18,6), 'test', now())`, bills.map((b) => {
    const size = b.size ?? 'day';
    const total = [b.gpu, b.cpu, b.disk].reduce<number>((s, x) => s + Number(x ?? 0), 0);
    return [b.account ?? 'acme', size, b.start, b.end ?? endOf(b.start, size)!, b.pod, total.toFixed(6), dec(b.gpu), dec(b.cpu), dec(b.disk)];
  }));
}

export interface ServerlessBill {
  account?: string;
  size?: string;
  start: string;
  endpoint: string;
  gpu?: Amount;
  cpu?: Amount;
  disk?: Amount;
  fee?: Amount;
}

export async function billServerless(store: Store, bills: ServerlessBill[]): Promise<void> {
  await insertRows(store, 'insert into raw_billing_serverless', `($1, $2, $3::timestamptz, $4::timestamptz, $5, $6::decimal(18,6), $7::decimal(18,6), $8::decimal(18,6), $9::decimal(18,6), $10::decimal(18,6), 'test', now())`, bills.map((b) => {
    const size = b.size ?? 'day';
    const total = [b.gpu, b.cpu, b.disk, b.fee].reduce<number>((s, x) => s + Number(x ?? 0), 0);
    return [b.account ?? 'acme', size, b.start, endOf(b.start, size)!, b.endpoint, total.toFixed(6), dec(b.gpu), dec(b.cpu), dec(b.disk), dec(b.fee)];
  }));
}

export interface VolumeBill {
  account?: string;
  size?: string;
  start: string;
  volume: string;
  standard?: Amount;
  highPerformance?: Amount;
}

export async function billVolumes(store: Store, bills: VolumeBill[]): Promise<void> {
  await insertRows(store, 'insert into raw_billing_network_volumes', `($1, $2, $3::timestamptz, $4::timestamptz, $5, $6::decimal(18,6), $7::decimal(18,6), $8::decimal(18,6), 'test', now())`, bills.map((b) => {
    const size = b.size ?? 'day';
    const total = Number(b.standard ?? 0) + Number(b.highPerformance ?? 0);
    return [b.account ?? 'acme', size, b.start, endOf(b.start, size)!, b.volume, total.toFixed(6), dec(b.standard), dec(b.highPerformance)];
  }));
}

export async function billPublicEndpoints(store: Store, bills: { account?: string; size?: string; start: string; amount: Amount }[]): Promise<void> {
  await insertRows(store, 'insert into raw_billing_endpoints', `($1, $2, $3::timestamptz, $4::timestamptz, $5::decimal(18,6), 'test', now())`, bills.map((b) => {
    const size = b.size ?? 'day';
    return [
    b.account ?? 'acme', size, b.start, endOf(b.start, size)!, dec(b.amount),
    ];
  }));
}

export async function billClusters(
  store: Store,
  bills: { account?: string; size?: string; start: string; cluster: string; gpu?: Amount; disk?: Amount; networking?: Amount }[],
): Promise<void> {
  await insertRows(store, 'insert into raw_billing_clusters', `($1, $2, $3::timestamptz, $4::timestamptz, $5, $6::decimal(18,6), $7::decimal(18,6), $8::decimal(18,6), $9::decimal(18,6), 'test', now())`, bills.map((b) => {
    const size = b.size ?? 'day';
    const total = Number(b.gpu ?? 0) + Number(b.disk ?? 0) + Number(b.networking ?? 0);
    return [b.account ?? 'acme', size, b.start, endOf(b.start, size)!, b.cluster, total.toFixed(6), dec(b.gpu), dec(b.disk), dec(b.networking)];
  }));
}

export interface AggregateBill {
  account?: string;
  size?: string;
  start: string;
  pod?: [Amount, Amount, Amount];
  serverless?: [Amount, Amount, Amount, Amount];
  storage?: [Amount, Amount];
  endpoint?: Amount;
  cluster?: [Amount, Amount, Amount];
}

export async function billAggregate(store: Store, bills: AggregateBill[]): Promise<void> {
  // one placeholder per part: 3 pod, 4 serverless, 2 storage, 1 endpoint, 3 cluster
  const placeholders = Array.from({ length: 13 }, (_, i) => `$${i + 6}::decimal(18,6)`).join(', ');
  await insertRows(store, 'insert into raw_billing_aggregate', `($1, $2, $3::timestamptz, $4::timestamptz, $5::decimal(18,6), ${placeholders}, 'test', now())`, bills.map((b) => {
    const size = b.size ?? 'day';
    const parts = [...(b.pod ?? [0, 0, 0]), ...(b.serverless ?? [0, 0, 0, 0]), ...(b.storage ?? [0, 0]), b.endpoint ?? 0, ...(b.cluster ?? [0, 0, 0])];
    const total = parts.reduce<number>((s, x) => s + Number(x), 0);
    return [b.account ?? 'acme', size, b.start, endOf(b.start, size)!, total.toFixed(6), ...parts.map(dec)];
  }));
}

export interface InventoryVersion {
  account?: string;
  kind: 'pod' | 'endpoint' | 'template' | 'network_volume' | 'gpu_type' | 'cluster' | 'graphql_endpoint' | 'serverless_discount';
  id: string;
  doc: Record<string, unknown>;
  /** Default -infinity (the first version). */
  from?: string;
  /** Default infinity (the current version). */
  to?: string;
  deletedAt?: string;
}

export async function addInventory(store: Store, versions: InventoryVersion[]): Promise<void> {
  await insertRows(store, 'insert into raw_inventory', `($1, $2, $3, $4::timestamptz, $5::timestamptz, now(), now(), $6::timestamptz, 'hash', $7::json, 'test')`, versions.map((v) => {
    return [v.account ?? 'acme', v.kind, v.id, v.from ?? '-infinity', v.to ?? 'infinity', v.deletedAt ?? null, JSON.stringify({ id: v.id, ...v.doc })];
  }));
}

export async function setWatermark(
  store: Store,
  w: { account?: string; source: string; size: string; from: string; through: string; complete?: string; runStatus?: string },
): Promise<void> {
  const runId = `run-${w.source}-${w.size}`;
  await store.run(`insert or replace into _meta_watermarks values ($1, $2, $3, $4::timestamptz, $5::timestamptz, $6::timestamptz, $5::timestamptz, $7)`, [
    w.account ?? 'acme', w.source, w.size, w.from, w.through, w.complete ?? w.through, runId,
  ]);
  if (w.runStatus) {
    await store.run(`insert or replace into _meta_runs (run_id, command, started_at, finished_at, status) values ($1, 'sync', $2::timestamptz, $2::timestamptz, $3)`, [
      runId, w.through, w.runStatus,
    ]);
  }
}

/** Every day from `first` (inclusive) for `n` days, as RFC 3339 midnights. */
export function days(first: string, n: number): string[] {
  const t0 = new Date(`${first}T00:00:00Z`).getTime();
  return Array.from({ length: n }, (_, i) => new Date(t0 + i * 86_400_000).toISOString());
}
