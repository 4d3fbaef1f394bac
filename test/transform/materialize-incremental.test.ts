// A sync costs what changed (issue 28 §1): after a long history is materialised, a one-day restatement loaded by the
// real loader (read_json of a spooled page, compared, logged, replaced) rewrites only that day's rows of the
// materialised tables – the same count whether the history holds two months or two years – and leaves every table
// equal, to the micro-dollar, to a computation from scratch.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBillingPage, type SpooledPage } from '../../src/extract/load-billing.ts';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import type { Store } from '../../src/store/database.ts';
import { dropShadowedMaterialized, refreshMaterialized, shadowMaterialized } from '../../src/transform/materialize.ts';
import { addInventory, openMigratedStore, setWatermark, tmpDbPath } from '../helpers/view-store.ts';

const PODS = 12;
const LAST_DAY = '2026-10-31';
const CHANGED = '2026-10-20';
const TABLES = ['fct_cost_daily', 'fct_cost_allocated', 'fct_gpu_hours_daily', 'fct_scope_cost_daily'];

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/**
 * `historyDays` day buckets of PODS pods up to LAST_DAY in two accounts (acme, whose day changes, and other, whose
 * rows must stay as they are), with amounts that differ per pod and day (exact decimals).
 */
async function longHistory(historyDays: number): Promise<Store> {
  const path = tmpDbPath('gpuledger-materialize-');
  const s = await openMigratedStore(path); // the worker's migrated template, copied
  for (const account of ['acme', 'other']) {
    await addInventory(s, Array.from({ length: PODS }, (_, p) => ({ account, kind: 'pod', id: `pod-${p}`, doc: { name: `svc-${p % 3}`, status: 'RUNNING', gpuTypeId: 'NVIDIA A40', gpuCount: 1 } })));
  }
  await s.run(
    `insert into raw_billing_pods
     with grid as (
         select d.day, p.p,
                (((p.p * 7919 + d.i * 104729) % 1000000) / 1000000)::decimal(18,6) as gpu,
                (((p.p * 31 + d.i * 17) % 1000) / 1000000)::decimal(18,6) as disk
         from (select i, $last::date - i::integer as day from range($days) t(i)) as d,
              (select range as p from range(${PODS})) as p
     )
     select a.account, 'day', day::timestamptz, (day + 1)::timestamptz, 'pod-' || p, gpu + disk, gpu, 0, disk, 'history', now()
     from grid, (values ('acme'), ('other')) as a(account)`,
    { last: LAST_DAY, days: historyDays },
  );
  await setWatermark(s, { source: 'pods', size: 'day', from: '2020-01-01T00:00:00Z', through: `${LAST_DAY}T00:00:00Z` });
  return s;
}

/** The day's records as the API would answer them (one pod's GPU amount restated), loaded by the real loader. */
async function restateOneDay(s: Store): Promise<void> {
  const rows = await s.all<{ pod_id: string; gpu: string; disk: string }>(
    `select pod_id, gpu_amount::varchar gpu, disk_amount::varchar disk from raw_billing_pods where account = 'acme' and start_time = $d::timestamptz order by pod_id`,
    { d: `${CHANGED}T00:00:00Z` },
  );
  const records = rows.map((r) => {
    const gpu = r.pod_id === 'pod-3' ? '12.345678' : r.gpu;
    const total = ((BigInt(Math.round(Number(gpu) * 1e6)) + BigInt(Math.round(Number(r.disk) * 1e6))).toString().padStart(7, '0'));
    const totalText = `${total.slice(0, -6)}.${total.slice(-6)}`;
    return `{"startTime":"${CHANGED}T00:00:00Z","endTime":"${dayAfter(CHANGED)}T00:00:00Z","podId":"${r.pod_id}","totalAmount":${totalText},"gpuAmount":${gpu},"cpuAmount":0,"diskAmount":${r.disk}}`;
  });
  const text = `[${records.join(',')}]`;
  const file = join(s.path, '..', 'page.json');
  writeFileSync(file, text);
  const page: SpooledPage = {
    route: 'pods',
    path: '/v2/billing/pods',
    what: `GET /v2/billing/pods [${CHANGED}, ${dayAfter(CHANGED)}) day`,
    query: { startTime: new Date(`${CHANGED}T00:00:00Z`), endTime: new Date(`${dayAfter(CHANGED)}T00:00:00Z`), bucketSize: 'day' },
    recordCount: records.length,
    stated: { totals: {} },
    read: 'split',
    bytes: Buffer.byteLength(text),
    warnings: [],
    file,
  };
  await loadBillingPage(
    { store: s, runId: 'test', account: 'acme', def: BILLING_SOURCE_DEFS.pods, bucketSize: 'day', serverNow: new Date(`${LAST_DAY}T12:00:00Z`), completeThrough: new Date(`${LAST_DAY}T00:00:00Z`), lastOfRange: true },
    page,
    Object.values(BILLING_SOURCE_DEFS),
  );
}

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function rowsOfDay(s: Store, table: string, day: string): Promise<number> {
  return Number((await s.one<{ n: string }>(`select count(*)::varchar n from ${table} where account = 'acme' and day = $d::date`, { d: day }))!.n);
}

/** Rows that differ between the stored table and one computed from scratch (both directions, duplicates counted). */
async function differences(s: Store, table: string): Promise<number> {
  const q = (a: string, b: string) => `select count(*)::varchar n from (select * from ${a} except all select * from ${b})`;
  const one = Number((await s.one<{ n: string }>(q(`main.${table}`, `temp.main.${table}`)))!.n);
  const other = Number((await s.one<{ n: string }>(q(`temp.main.${table}`, `main.${table}`)))!.n);
  return one + other;
}

/** Each table holds exactly what a full recompute from the views gives (the recompute shadows them in temp). */
async function expectEqualToRecompute(s: Store): Promise<void> {
  await shadowMaterialized(s);
  try {
    for (const table of TABLES) expect(await differences(s, table), table).toBe(0);
  } finally {
    await dropShadowedMaterialized(s);
  }
}

describe('refreshing the materialised tables after a one-day change', () => {
  it.each([60, 730])('rewrites only the changed day’s rows on a %i-day history, and the tables equal a full recompute', async (historyDays) => {
    store = await longHistory(historyDays);
    const first = await refreshMaterialized(store);
    expect(first.kind).toBe('full');
    expect(first.rows).toBeGreaterThan(historyDays * PODS);

    const pod3 = `select total_amount::varchar t, disk_amount::varchar disk from raw_billing_pods where account = 'acme' and pod_id = 'pod-3' and start_time = '${CHANGED}T00:00:00Z'::timestamptz`;
    const before = (await store.one<{ t: string; disk: string }>(pod3))!;
    await restateOneDay(store);
    // the loader logged what moved: one closed bucket of one pod, old and new amounts exact
    const after = (await store.one<{ t: string }>(pod3))!;
    expect(after.t).toBe((await store.one<{ t: string }>(`select (12.345678 + $disk::decimal(18,6))::decimal(18,6)::varchar t`, { disk: before.disk }))!.t);
    expect(await store.all(`select kind, resource_id, old_amount::varchar old_amount, new_amount::varchar new_amount from _meta_restatements`)).toEqual([
      { kind: 'restatement', resource_id: 'pod-3', old_amount: before.t, new_amount: after.t },
    ]);

    const summary = await refreshMaterialized(store);
    expect(summary.kind).toBe('incremental');
    expect(summary.days).toBe(1);
    const dayRows = await rowsOfDay(store, 'fct_cost_daily', CHANGED);
    expect(dayRows).toBeGreaterThan(0);
    // every row written and every row removed is the changed day's in its account – none of the history around it, nor
    // the other account's same day
    expect(summary.rows).toBe(dayRows);
    expect(summary.removed).toBe(dayRows);
    expect(summary.written).toEqual({
      fct_cost_daily: dayRows,
      fct_cost_allocated: await rowsOfDay(store, 'fct_cost_allocated', CHANGED),
      fct_gpu_hours_daily: await rowsOfDay(store, 'fct_gpu_hours_daily', CHANGED),
      fct_scope_cost_daily: await rowsOfDay(store, 'fct_scope_cost_daily', CHANGED),
    });
    expect(summary.written.fct_gpu_hours_daily).toBeGreaterThan(0);

    // exact to the micro-dollar: the day's sum is the page's, and every table equals one computed from scratch
    const sums = await store.one<{ fct: string; raw: string }>(
      `select (select sum(amount)::varchar from fct_cost_daily where account = 'acme' and day = $d::date) fct,
              (select sum(total_amount)::varchar from raw_billing_pods where account = 'acme' and start_time = $d::timestamptz) raw`,
      { d: CHANGED },
    );
    expect(sums!.fct).toBe(sums!.raw);
    await expectEqualToRecompute(store);

    // nothing changed since: nothing is written
    expect(await refreshMaterialized(store)).toMatchObject({ kind: 'none', rows: 0, removed: 0 });
  });

  it('finds a rename in the inventory after refreshes that found none, and rewrites only that pod’s days from the rename on', async () => {
    store = await longHistory(60);
    await refreshMaterialized(store);
    // nothing changed: the inventory's islands are the snapshot's, nothing is written
    expect(await refreshMaterialized(store)).toMatchObject({ kind: 'none', rows: 0 });

    // pod-5 is renamed at the start of 2026-10-25: a new version from then on
    const renamedAt = '2026-10-25T00:00:00Z';
    await store.run(`update raw_inventory set valid_to = $t::timestamptz where account = 'acme' and id = 'pod-5'`, { t: renamedAt });
    await addInventory(store, [{ account: 'acme', kind: 'pod', id: 'pod-5', from: renamedAt, doc: { name: 'svc-renamed', status: 'RUNNING', gpuTypeId: 'NVIDIA A40', gpuCount: 1 } }]);
    const summary = await refreshMaterialized(store);
    expect(summary.kind).toBe('incremental');
    const renamedRows = Number((await store.one<{ n: string }>(`select count(*)::varchar n from fct_cost_daily where account = 'acme' and resource_id = 'pod-5' and day >= '2026-10-25'`))!.n);
    expect(renamedRows).toBeGreaterThan(0);
    expect(summary.rows).toBe(renamedRows);
    expect(await store.all(`select distinct resource_name from fct_cost_daily where account = 'acme' and resource_id = 'pod-5' and day >= '2026-10-25'`)).toEqual([{ resource_name: 'svc-renamed' }]);
    expect(await store.all(`select distinct resource_name from fct_cost_daily where account = 'acme' and resource_id = 'pod-5' and day < '2026-10-25'`)).toEqual([{ resource_name: 'svc-2' }]);
    expect(await store.all(`select distinct resource_name from fct_cost_daily where account = 'other' and resource_id = 'pod-5'`)).toEqual([{ resource_name: 'svc-2' }]);
    await expectEqualToRecompute(store);
  });

  it('follows a pod first seen in the inventory (its whole history named) and a restated day in one refresh, rewriting only their rows (once where they meet)', async () => {
    store = await longHistory(60);
    // pod-7 of acme is billed but not in the inventory yet: its cost is named as unknown
    await store.run(`delete from raw_inventory where account = 'acme' and id = 'pod-7'`);
    await refreshMaterialized(store);
    expect(await store.all(`select distinct attribution from fct_cost_daily where account = 'acme' and resource_id = 'pod-7'`)).toEqual([{ attribution: 'unknown' }]);

    // the next sync sees it (a version from the beginning of time: every day of its history changes) and restates a day
    await addInventory(store, [{ account: 'acme', kind: 'pod', id: 'pod-7', doc: { name: 'svc-late', status: 'RUNNING', gpuTypeId: 'NVIDIA A40', gpuCount: 1 } }]);
    await restateOneDay(store);
    const summary = await refreshMaterialized(store);
    expect(summary.kind).toBe('incremental');
    // written: pod-7's rows of every day and the restated day's rows of acme – counted once where they meet
    const expected = Number((await store.one<{ n: string }>(`select count(*)::varchar n from fct_cost_daily where account = 'acme' and (resource_id = 'pod-7' or day = $d::date)`, { d: CHANGED }))!.n);
    const pod7Days = Number((await store.one<{ n: string }>(`select count(distinct day)::varchar n from fct_cost_daily where account = 'acme' and resource_id = 'pod-7'`))!.n);
    expect(pod7Days).toBe(60);
    expect(summary.rows).toBe(expected);
    expect(summary.removed).toBe(expected);
    expect(summary.days).toBe(60);
    expect(await store.all(`select distinct resource_name from fct_cost_daily where account = 'acme' and resource_id = 'pod-7'`)).toEqual([{ resource_name: 'svc-late' }]);
    await expectEqualToRecompute(store);
  });

  it('leaves fct_cost_allocated empty without evaluating it while no category is defined, and follows categories added and removed later', async () => {
    store = await longHistory(60);
    await refreshMaterialized(store);
    const allocated = async () => Number((await store!.one<{ n: string }>('select count(*)::varchar n from fct_cost_allocated'))!.n);
    expect(await allocated()).toBe(0);
    // a restatement with no category: the cost moves, the allocation has nothing to write
    await restateOneDay(store);
    expect((await refreshMaterialized(store)).written).toMatchObject({ fct_cost_allocated: 0 });

    // a category added later: the rules' hash differs, so everything is allocated under it – every cost row once, at the default
    await store.run(`insert into _meta_allocation_categories values ('team', 'unassigned', now())`);
    const added = await refreshMaterialized(store);
    const costRows = Number((await store.one<{ n: string }>('select count(*)::varchar n from fct_cost_daily'))!.n);
    expect(added.written.fct_cost_allocated).toBe(costRows);
    expect(await store.all(`select distinct category, value from fct_cost_allocated`)).toEqual([{ category: 'team', value: 'unassigned' }]);
    await expectEqualToRecompute(store);

    // and removed again: the table follows, empty
    await store.run('delete from _meta_allocation_categories');
    expect((await refreshMaterialized(store)).kind).toBe('none');
    expect(await allocated()).toBe(0);
  });
});
