// `sync` against the simulator over real HTTP into real DuckDB files: the money equals the ledger to the
// micro-dollar for every source and bucket size, re-syncs never double-count, the open bucket's growth and
// restatements replace what was there and are logged, and faults change nothing but the retry counters.
import { describe, expect, it } from 'vitest';
import type { BillingSource } from '../../src/config/sync.ts';
import { expectMatchesLedger, fastSimulator, openTestStore, smallSyncConfig, storedTotals, syncOnce } from '../helpers/sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { simulatedAccount, withSimulatedStore } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const ALL: BillingSource[] = ['aggregate', 'pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'];
const HOUR = 3_600_000;

describe('sync into an empty database, then again', () => {
  const synced = suiteFixture(() => simulatedAccount('gpuledger-test-', async ({ tmp }) => ({ store: await openTestStore(tmp.db) })));

  it('loads every source at every configured bucket size, equal to the ledger to the micro-dollar', async () => {
    const result = await syncOnce(synced.store, smallSyncConfig(synced.sim));
    expect(result.errors).toEqual([]);
    expect(result.status).toBe('success');
    const compared = await expectMatchesLedger(synced.store, synced.sim, ALL, expect);
    expect(compared).toBe(8); // 6 sources by day + hourly pods and Serverless
    const sizes = await synced.store.all<{ source: string; bucket_size: string }>(`select source, bucket_size from _meta_watermarks order by all`);
    expect(sizes.map((s) => `${s.source}/${s.bucket_size}`)).toContain('pods/hour');
    // per bucket, the aggregate agrees with the family routes (the reconciliation view's question)
    const diff = await synced.store.one<{ n: string }>(
      `select count(*)::varchar n from rpt_reconciliation where difference <> 0`,
    );
    expect(diff?.n).toBe('0');
  });

  it('changes nothing when run again at the same moment', async () => {
    // every row, zeros included: the loader keeps no all-zero record, so a shorter re-read keeps what the first read did
    const money = async () => (await Promise.all(ALL.map((s) => storedTotals(synced.store, s)))).flat().map((r) => `${r.bucket_size} ${r.total} ${r.first_start} ${r.last_end} ${r.n}`);
    const nonZero = () => synced.store.one<{ n: string }>(`select count(*)::varchar n from raw_billing_pods`);
    const before = await money();
    const rowsBefore = await nonZero();
    const result = await syncOnce(synced.store, smallSyncConfig(synced.sim));
    expect(result.status).toBe('success');
    expect(await money()).toEqual(before);
    expect(await nonZero()).toEqual(rowsBefore);
    const moved = await synced.store.one<{ n: string }>(`select count(*)::varchar n from _meta_restatements`);
    expect(moved?.n).toBe('0');
    // the second sync only re-read the lookback: far fewer records than the backfill
    const runs = await synced.store.all<{ records: string }>(`select records::varchar records from _meta_runs order by started_at`);
    expect(Number(runs[1]!.records)).toBeLessThan(Number(runs[0]!.records) / 2);
  });

  it('picks up the open bucket growing and restated hours as the clock moves, counting nothing twice', async () => {
    synced.sim.advance(3 * HOUR);
    const result = await syncOnce(synced.store, smallSyncConfig(synced.sim));
    expect(result.status).toBe('success');
    await expectMatchesLedger(synced.store, synced.sim, ALL, expect);
    const kinds = await synced.store.all<{ kind: string; n: string }>(
      `select kind, count(*)::varchar n from _meta_restatements group by kind order by kind`,
    );
    const byKind = Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]));
    expect(byKind.growth).toBeGreaterThan(0);
    expect(byKind.restatement).toBeGreaterThan(0);
    // the planted restated pod: an hour that was preliminary at the first read moved up
    const restated = await synced.store.one<{ n: string }>(
      `select count(*)::varchar n from _meta_restatements where resource_id = $1 and kind = 'restatement' and new_amount > old_amount`,
      [synced.sim.account.planted.restatedPod.id],
    );
    expect(Number(restated?.n)).toBeGreaterThan(0);
    // exactly one row per record key: a re-read replaces, never appends
    const dupes = await synced.store.one<{ n: string }>(
      `select count(*)::varchar n from (select account, bucket_size, start_time, pod_id from raw_billing_pods group by all having count(*) > 1)`,
    );
    expect(dupes?.n).toBe('0');
  });

  it('records complete-through behind the lookback and loaded-through at the platform\'s time, not the wall clock', async () => {
    const wm = await synced.store.one<{ loaded_through: string; complete_through: string }>(
      `select loaded_through::varchar loaded_through, complete_through::varchar complete_through from _meta_watermarks
       where account = 'sim' and source = 'pods' and bucket_size = 'hour'`,
    );
    const now = synced.sim.now().getTime();
    expect(new Date(wm!.loaded_through).getTime()).toBeLessThanOrEqual(now);
    expect(new Date(wm!.loaded_through).getTime()).toBeGreaterThan(now - HOUR);
    // open hour + 3 closed hours are not final yet
    const openHour = Math.floor(now / HOUR) * HOUR;
    expect(new Date(wm!.complete_through).getTime()).toBe(openHour - 3 * HOUR);
  });

  it('keeps inventory as history: a renamed pod has both names, each for its own time, and no env is stored', async () => {
    const renamed = synced.sim.account.planted.renamedPod;
    const versions = await synced.store.all<{ pod_name: string; valid_from: string; valid_to: string }>(
      `select doc->>'name' pod_name, valid_from::varchar valid_from, valid_to::varchar valid_to from raw_inventory
       where kind = 'pod' and id = $1 order by valid_from`,
      [renamed.id],
    );
    expect(versions.length).toBeGreaterThanOrEqual(1);
    expect(versions.at(-1)!.valid_to).toBe('infinity');
    const env = await synced.store.one<{ n: string }>(`select count(*)::varchar n from raw_inventory where doc::varchar like '%HF_HOME%' or json_exists(doc, '$.env')`);
    expect(env?.n).toBe('0');
    // jump past the rename: the next sync adds a version from then on, the old one ends there
    synced.sim.setNow(new Date(renamed.renamedAt.getTime() + 2 * HOUR));
    await syncOnce(synced.store, smallSyncConfig(synced.sim), { sources: ['inventory'] });
    const after = await synced.store.all<{ pod_name: string; valid_to: string }>(
      `select doc->>'name' pod_name, valid_to::varchar valid_to from raw_inventory where kind = 'pod' and id = $1 order by valid_from`,
      [renamed.id],
    );
    expect(after.map((v) => v.pod_name)).toEqual([renamed.oldName, renamed.newName]);
    expect(after[1]!.valid_to).toBe('infinity');
  });
});

describe('sync under faults', () => {
  it('completes with identical totals through 5xx, resets, truncated bodies and 429 storms', async () => {
    await withSimulatedStore({ faults: '5xx=0.15,reset=0.05,truncate=0.05,429=0.1' }, async ({ sim, store }) => {
      const result = await syncOnce(store, smallSyncConfig(sim), { sources: ['aggregate', 'pods', 'serverless', 'network-volumes'] });
      expect(result.errors).toEqual([]);
      expect(result.retries + result.rateLimited).toBeGreaterThan(0);
      await expectMatchesLedger(store, sim, ['aggregate', 'pods', 'serverless', 'network-volumes'], expect);
      const run = await store.one<{ status: string; retries: number }>(`select status, retries from _meta_runs`);
      expect(run?.status).toBe('success');
    });
  });

  it('fails only the drifting source, naming the field, and commits nothing of it', async () => {
    await withSimulatedStore({ faults: 'drift=pods@1' }, async ({ sim, store }) => {
      const result = await syncOnce(store, smallSyncConfig(sim), { sources: ['aggregate', 'pods'] });
      expect(result.status).toBe('partial');
      const podErrors = result.errors.filter((e) => e.source.startsWith('pods'));
      expect(podErrors.length).toBeGreaterThan(0);
      expect(podErrors[0]!.message).toMatch(/Amount/);
      expect(podErrors[0]!.message).toMatch(/\/v2\/billing\/pods/);
      const pods = await store.one<{ n: string }>(`select count(*)::varchar n from raw_billing_pods`);
      expect(pods?.n).toBe('0');
      await expectMatchesLedger(store, sim, ['aggregate'], expect);
      const run = await store.one<{ status: string }>(`select status from _meta_runs`);
      expect(run?.status).toBe('partial');
    });
  });

  it('shows no complete-through date for a source that failed, even when an earlier run completed some', async () => {
    const good = await fastSimulator();
    const tmp = tempDir();
    const store = await openTestStore(tmp.db);
    try {
      const first = await syncOnce(store, smallSyncConfig(good), { sources: ['pods'] });
      expect(first.ranges.find((r) => r.source === 'pods')?.completeThrough).toMatch(/^\d{4}-/);
      await good.close();
      const drifting = await fastSimulator({ faults: 'drift=pods@1' });
      try {
        const second = await syncOnce(store, smallSyncConfig(drifting), { sources: ['pods'] });
        const pods = second.ranges.filter((r) => r.source === 'pods');
        expect(pods.some((r) => r.status === 'failed')).toBe(true);
        for (const r of pods.filter((x) => x.status === 'failed')) expect(r.completeThrough).toBeNull();
      } finally {
        await drifting.close();
      }
    } finally {
      await store.close();
      tmp.cleanup();
    }
  });

  it('carries on without GraphQL, with a warning', async () => {
    await withSimulatedStore({ faults: 'graphql=down' }, async ({ sim, store }) => {
      const result = await syncOnce(store, smallSyncConfig(sim), { sources: ['inventory'] });
      expect(result.errors).toEqual([]);
      expect(result.status).toBe('success');
      expect(result.warnings.join('\n')).toMatch(/GraphQL/);
      const pods = await store.one<{ n: string }>(`select count(*)::varchar n from raw_inventory where kind = 'pod'`);
      expect(Number(pods?.n)).toBeGreaterThan(0);
    });
  });
});
