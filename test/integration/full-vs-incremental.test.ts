// Two equal histories hold equal rows (issue 37 §5): a store synced once over a window and a store that reached the
// same moment by an earlier sync and an incremental re-read hold the same billing rows, row by row. The simulator's
// dense grid lists every resource billed *in the window asked for*, zeros included (billing-api-v2.md §2), so a
// shorter re-read answers fewer zero rows than a full read of the same days; the loader keeps no all-zero record of a
// resource, so both loads keep what the sparse answer holds.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import type { Simulator } from '../../src/simulator/index.ts';
import { fastSimulator, NOW, openTestStore, smallSyncConfig, syncOnce } from '../helpers/sync.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';

const DAY = 86_400_000;

describe('a full sync and an incremental one reaching the same moment', () => {
  let sim: Simulator;
  let tmp: TempDir;
  let both: DuckDBConnection;
  let instance: DuckDBInstance;

  beforeAll(async () => {
    sim = await fastSimulator();
    tmp = tempDir('gpuledger-full-vs-incremental-');
    const now = new Date(NOW).getTime();
    // one start for both, so both hold the same days
    const small = smallSyncConfig(sim);
    const config = { ...small, sync: { ...small.sync, start: new Date(Math.floor((now - 45 * DAY) / DAY) * DAY).toISOString() } };
    const incremental = await openTestStore(join(tmp.dir, 'incremental.duckdb'));
    try {
      sim.setNow(new Date(now - 10 * DAY));
      expect((await syncOnce(incremental, config)).status).toBe('success');
      sim.setNow(new Date(now));
      expect((await syncOnce(incremental, config)).status).toBe('success');
    } finally {
      await incremental.close();
    }
    const full = await openTestStore(join(tmp.dir, 'full.duckdb'));
    try {
      expect((await syncOnce(full, config)).status).toBe('success');
    } finally {
      await full.close();
    }
    instance = await DuckDBInstance.create(':memory:');
    both = await instance.connect();
    await both.run(`attach '${join(tmp.dir, 'full.duckdb')}' as full_sync (read_only); attach '${join(tmp.dir, 'incremental.duckdb')}' as incremental_sync (read_only)`);
  }, 240_000);

  afterAll(async () => {
    both?.closeSync();
    instance?.closeSync();
    await sim?.close();
    tmp?.cleanup();
  });

  // Day buckets: the hour buckets are kept for the last days only (sync.bucketSizes), and a store synced earlier
  // keeps the hours it read then – more detail of the same days, on purpose.
  /** Day rows of `table` in one store that the other lacks, counting duplicates (except all), without the load's columns. */
  const missingFrom = async (table: string, from: string, other: string) => {
    const sql = `select count(*)::varchar as n from (
                   select * exclude (_load_id, _extracted_at) from ${from}.${table} where bucket_size = 'day'
                   except all
                   select * exclude (_load_id, _extracted_at) from ${other}.${table} where bucket_size = 'day')`;
    return (await (await both.runAndReadAll(sql)).getRowObjectsJson())[0]!.n;
  };

  for (const def of Object.values(BILLING_SOURCE_DEFS)) {
    it(`holds the same ${def.source} day rows in both, row by row both ways (except all)`, async () => {
      const count = async (db: string) => (await (await both.runAndReadAll(`select count(*)::varchar as n from ${db}.${def.table} where bucket_size = 'day'`)).getRowObjectsJson())[0]!.n;
      expect(Number(await count('full_sync'))).toBeGreaterThan(0);
      expect(`${def.table}: ${await missingFrom(def.table, 'full_sync', 'incremental_sync')} rows of the full sync missing from the incremental one`).toBe(`${def.table}: 0 rows of the full sync missing from the incremental one`);
      expect(`${def.table}: ${await missingFrom(def.table, 'incremental_sync', 'full_sync')} rows of the incremental sync missing from the full one`).toBe(`${def.table}: 0 rows of the incremental sync missing from the full one`);
      expect(await count('incremental_sync')).toBe(await count('full_sync'));
    });
  }
});
