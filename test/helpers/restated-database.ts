// A database with one restatement, loaded through the real loader (which records restatements as a sync does): a
// day's pod bucket loaded at `knownAt` with `restated` at 10 USD and `gone` at 5 USD, then read again after it with
// `restated` at 500 USD and a new record `added` at 40 USD. `afterLoads` is a moment after both loads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBillingPage, type SpooledPage } from '../../src/extract/load-billing.ts';
import { startRun } from '../../src/extract/runs.ts';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import { openStore } from '../../src/store/database.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { tempDir, type TempDir } from './temp-dir.ts';

const DAY = 86_400_000;

export interface RestatedDatabase {
  tmp: TempDir;
  /** The bucket's UTC day (two days ago). */
  day: string;
  knownAt: string;
  afterLoads: string;
}

export async function restatedDatabase(prefix: string, ids: { restated: string; gone: string; added: string } = { restated: 'pod-r', gone: 'pod-gone', added: 'pod-new' }): Promise<RestatedDatabase> {
  const tmp = tempDir(prefix);
  const store = await openStore({ path: tmp.db, command: 'test' });
  const runId = await startRun(store, 'sync', 'test');
  const start = new Date(Math.floor(Date.now() / DAY) * DAY - 2 * DAY);
  const end = new Date(start.getTime() + DAY);
  const record = (id: string, total: string) => ({ startTime: start.toISOString(), endTime: end.toISOString(), podId: id, totalAmount: Number(total), gpuAmount: Number(total), cpuAmount: 0, diskAmount: 0 });
  let pages = 0;
  const page = (records: ReturnType<typeof record>[]): SpooledPage => {
    const file = join(tmp.dir, `page-${++pages}.json`);
    writeFileSync(file, JSON.stringify(records));
    return {
      route: 'pods',
      path: '/v2/billing/pods',
      what: `GET /v2/billing/pods [${start.toISOString()}, ${end.toISOString()}) day`,
      query: { startTime: start, endTime: end, bucketSize: 'day' },
      file,
      recordCount: records.length,
      stated: { recordCount: records.length, totals: {} },
      read: 'split',
      bytes: 100,
      warnings: [],
    };
  };
  const load = (p: SpooledPage) =>
    loadBillingPage(
      { store, runId, account: 'acme', def: BILLING_SOURCE_DEFS.pods, bucketSize: 'day', serverNow: new Date(), completeThrough: end, lastOfRange: true },
      p,
      Object.values(BILLING_SOURCE_DEFS),
    );
  // a later load must be strictly after knownAt, and afterLoads strictly after the last: the clock is milliseconds
  const lastLoad = async () => (await store.one<{ at: string }>(`select strftime(max(extracted_at), '%Y-%m-%dT%H:%M:%S.%gZ') as at from _meta_loads`))!.at;
  const passed = async (at: string) => {
    while (Date.now() <= new Date(at).getTime() + 1) await new Promise((r) => setTimeout(r, 2));
  };
  try {
    await load(page([record(ids.restated, '10.000000'), record(ids.gone, '5.000000')]));
    const knownAt = await lastLoad();
    await passed(knownAt);
    await load(page([record(ids.restated, '500.000000'), record(ids.added, '40.000000')]));
    await passed(await lastLoad());
    const afterLoads = new Date().toISOString();
    await refreshMaterialized(store);
    return { tmp, day: start.toISOString().slice(0, 10), knownAt, afterLoads };
  } finally {
    await store.close();
  }
}
