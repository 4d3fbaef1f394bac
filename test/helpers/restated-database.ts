// A database with one restatement, loaded through the real loader (which records restatements as a sync does): a
// day's pod bucket loaded at `knownAt` with `restated` at 10 USD and `gone` at 5 USD, then read again after it with
// `restated` at 500 USD and a new record `added` at 40 USD. `afterLoads` is a moment after both loads.
import { openStore } from '../../src/store/database.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { podBucketLoader } from './pod-bucket-loads.ts';
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
  const start = new Date(Math.floor(Date.now() / DAY) * DAY - 2 * DAY);
  const end = new Date(start.getTime() + DAY);
  const load = await podBucketLoader({ store, dir: tmp.dir, start, completeThrough: end });
  // a later load must be strictly after knownAt, and afterLoads strictly after the last: the clock is milliseconds
  const lastLoad = async () => (await store.one<{ at: string }>(`select strftime(max(extracted_at), '%Y-%m-%dT%H:%M:%S.%gZ') as at from _meta_loads`))!.at;
  const passed = async (at: string) => {
    while (Date.now() <= new Date(at).getTime() + 1) await new Promise((r) => setTimeout(r, 2));
  };
  try {
    await load([{ id: ids.restated, total: '10.000000' }, { id: ids.gone, total: '5.000000' }]);
    const knownAt = await lastLoad();
    await passed(knownAt);
    await load([{ id: ids.restated, total: '500.000000' }, { id: ids.added, total: '40.000000' }]);
    await passed(await lastLoad());
    const afterLoads = new Date().toISOString();
    await refreshMaterialized(store);
    return { tmp, day: start.toISOString().slice(0, 10), knownAt, afterLoads };
  } finally {
    await store.close();
  }
}
