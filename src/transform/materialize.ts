// Readers read a table: fct_cost_daily holds the attributed daily cost (cost_daily) so that no query re-derives it
// from raw billing through the attribution views. A writing session brings it up to date before it publishes, for
// what changed and nothing more, as dbt's incremental models do (sql/materialize/):
//
// - a billing load marks the days of the window it replaced in _meta_cost_changes, in its own transaction;
// - an inventory change is found by comparing the resource timeline's islands with the snapshot the table was
//   computed from (names are as of a day's start, so only the days from the change on move);
// - a change to raw billing that nobody marked (a write outside the loader) is noticed from per-family counts and
//   totals, and that family is computed again;
// - a change of the view files (an upgrade) computes everything again.
//
// All of it runs in one transaction: a session killed half-way leaves the marks for the next one.
import { createHash } from 'node:crypto';
import type { SqlSession as Store } from './sql-session.ts';
import { count, materializeFiles, recordRefresh, rowsChanged, sql, storedHash } from './materialize-common.ts';
import { DERIVED, refreshDerived } from './materialize-derived.ts';
import { candidates, changedRows, dayRange, within, type DayRange } from './changed-rows.ts';

const TABLE = 'fct_cost_daily';

export interface RefreshSummary {
  /** What was computed again: nothing, the changed days, or everything (the views changed). */
  kind: 'none' | 'incremental' | 'full';
  /** Rows written into fct_cost_daily. */
  rows: number;
  /** Rows removed from fct_cost_daily (those computed again, and those of costs gone). */
  removed: number;
  /** Account-days the tables computed from cost_daily followed (every one of them on a full refresh). */
  days: number;
  /** Rows written into each materialised table: what a refresh cost, whatever the history's length. */
  written: Record<string, number>;
}

const NOTHING: RefreshSummary = { kind: 'none', rows: 0, removed: 0, days: 0, written: {} };

/** What the table is computed from: the view files (their hash, as applied) and the refresh SQL itself. */
async function inputsHash(store: Store): Promise<string> {
  const applied = await store.one<{ views_hash: string }>('select views_hash from _meta_applied_views');
  const hash = createHash('sha256').update(applied?.views_hash ?? 'no views recorded');
  for (const f of materializeFiles().values()) hash.update(`${f.name}\n${f.sql}\n`);
  return hash.digest('hex');
}

/** Mark what changed without a load saying so: everything when the views changed, else unmarked writes and inventory. */
async function markChanges(store: Store, full: boolean, islands: boolean): Promise<void> {
  if (full) {
    await store.run(
      `insert into _meta_cost_changes
       select distinct account, family, null, null, null, 'views changed', now()
       from (select account, family from cost_inputs_now union select account, family from ${TABLE})`,
    );
  }
  await store.run(
    `insert into _meta_cost_changes
     select coalesce(n.account, o.account), coalesce(n.family, o.family), null, null, null, 'unmarked write', now()
     from cost_inputs_now as n
     full outer join _meta_cost_inputs as o on o.account = n.account and o.family = n.family
     where (n.record_count is distinct from o.record_count or n.total_amount is distinct from o.total_amount)
         and not exists (
             select 1 from _meta_cost_changes as c
             where c.account = coalesce(n.account, o.account) and c.family = coalesce(n.family, o.family)
         )`,
  );
  if (!islands) return;
  await store.run(
    `insert into _meta_cost_changes
     select account, family, resource_id, from_day, null, 'inventory', now()
     from (${sql('timeline_changes')})`,
  );
}

/** Bring fct_cost_daily and fct_cost_allocated up to date with the raw tables, the inventory and the allocation rules. */
export async function refreshMaterialized(store: Store): Promise<RefreshSummary> {
  // one refresh per connection at a time: a refresh reached again from inside one (a wrapper that refreshes before
  // it reads) would drop the temp tables the outer one still reads
  if (refreshing.has(store.connection)) return NOTHING;
  refreshing.add(store.connection);
  try {
    return await refreshOnce(store);
  } finally {
    refreshing.delete(store.connection);
  }
}

const refreshing = new WeakSet<object>();

/** The name under which _meta_materialized keeps the inventory fingerprint _meta_timeline_snapshot was taken at. */
const SNAPSHOT = '_meta_timeline_snapshot';

async function refreshOnce(store: Store): Promise<RefreshSummary> {
  const hash = await inputsHash(store);
  return store.transaction(async () => {
    await store.run(`create or replace temp table cost_inputs_now as ${sql('cost_inputs')}`);
    // the islands are computed over the whole inventory history; when no version changed since the snapshot was
    // taken (and the views did not), they are the snapshot's, and no inventory change can be found
    const inventory = (await store.one<{ inputs_hash: string }>(sql('inventory_fingerprint')))!.inputs_hash;
    const full = (await storedHash(store, TABLE)) !== hash;
    const islands = full || (await storedHash(store, SNAPSHOT)) !== inventory;
    // the resource timeline is computed over the whole inventory history, and each query below that attributes or
    // prices cost would compute it again: computed once here, as a temp table that shadows the view for this
    // connection (temp is found before main, also inside views), whenever something is to be computed
    if (islands || (await count(store, 'select 1 from _meta_cost_changes')) > 0) {
      await store.run('create or replace temp table int_resource_timeline as select * from main.int_resource_timeline');
    }
    if (islands) await store.run(`create or replace temp table timeline_islands as ${sql('timeline_islands')}`);
    await store.run('create or replace temp table changed_days (account varchar, day date)');
    await store.run(sql('changed_cost'));
    try {
      const cost = await refreshCostDaily(store, hash, full, islands);
      if (islands) await store.run(`insert or replace into _meta_materialized values ($name, $hash, now(), (select count(*) from ${SNAPSHOT}))`, { name: SNAPSHOT, hash: inventory });
      for (const d of DERIVED) cost.written[d.table] = await refreshDerived(store, hash, d, cost.kind === 'full');
      if (cost.kind === 'none' && Object.values(cost.written).every((n) => n === 0)) return NOTHING;
      return cost;
    } finally {
      for (const temp of ['cost_inputs_now', 'timeline_islands', 'changed_days', 'int_resource_timeline']) await store.run(`drop table if exists temp.${temp}`);
      await store.run('drop macro if exists temp.changed_cost');
    }
  });
}

/** The account-days of fct_cost_daily's rows that the marks name. */
// The macro's arguments are qualified: unqualified, `account` inside its subquery would name the mark's own column
// (_meta_cost_changes has account, family and resource_id too), and every mark would match every row.
const CHANGED_DAYS = (where: string) => `insert into changed_days
    select distinct f.account, f.day from ${TABLE} as f
    where ${where} and changed_cost(f.account, f.family, f.resource_id, f.day)`;

/** `islands`: the timeline's islands were computed (temp table timeline_islands) and the snapshot follows them. */
async function refreshCostDaily(store: Store, hash: string, full: boolean, islands: boolean): Promise<RefreshSummary> {
  await markChanges(store, full, islands);
  const marks = await count(store, 'select 1 from _meta_cost_changes');
  if (marks === 0 && !full) return { ...NOTHING, written: { [TABLE]: 0 } };
  let removed: number;
  let rows: number;
  let days: number;
  if (full) {
    // everything again: no row needs testing against the marks
    removed = await rowsChanged(store, `delete from ${TABLE}`);
    // in day order, so a later refresh of recent days touches (and a checkpoint rewrites) the last row groups only
    rows = await rowsChanged(store, `insert into ${TABLE} select * from (${sql('cost_daily_rows')}) order by day`, { range_from: '-infinity', range_to: 'infinity' });
    days = await count(store, `select distinct account, day from ${TABLE}`);
  } else {
    const changed = await changedRows(store);
    // a marked resource's rows outside the family marks' days come from raw rows no load touched since the last
    // refresh: they lie exactly on the days the table holds them, so those days bound the read – none at all for a
    // resource first seen (billed only on the days just loaded), a pod's life for one renamed from its start
    if (changed.resources && !(changed.days && within(changed.resources.range, changed.days))) {
      const outside = candidates('f', { resources: changed.resources, days: changed.days }, true);
      const held = (await store.one<{ first: string | null; last: string | null }>(
        `select strftime(min(f.day), '%Y-%m-%d') as first, strftime(max(f.day) + 1, '%Y-%m-%d') as last
         from ${TABLE} as f where ${outside.where} and changed_cost(f.account, f.family, f.resource_id, f.day)`,
        outside.params,
      ))!;
      changed.resources = held.first ? { ...changed.resources, range: dayRange(held.first, held.last) } : undefined;
    }
    const existing = candidates('f', changed);
    // the days whose allocation must follow: those of the rows removed and of the rows written
    await store.run(CHANGED_DAYS(existing.where), existing.params);
    removed = await rowsChanged(store, `delete from ${TABLE} as f where ${existing.where} and changed_cost(f.account, f.family, f.resource_id, f.day)`, existing.params);
    // computed from raw in (at most) two reads, each bounded so that DuckDB reads only their raw rows: the family
    // marks' days, then the marked resources' rows outside those days
    const insert = (range: DayRange, test: { where: string; params: Record<string, string> }) =>
      rowsChanged(
        store,
        `insert into ${TABLE} select r.* from (${sql('cost_daily_rows')}) as r where ${test.where} and changed_cost(r.account, r.family, r.resource_id, r.day) order by r.day`,
        { ...test.params, range_from: range.from, range_to: range.to },
      );
    rows = 0;
    if (changed.days) rows += await insert(changed.days, { where: 'true', params: {} });
    if (changed.resources && !(changed.days && within(changed.resources.range, changed.days))) {
      rows += await insert(changed.resources.range, candidates('r', { resources: changed.resources, days: changed.days }, true));
    }
    await store.run(CHANGED_DAYS(existing.where), existing.params);
    days = await count(store, 'select distinct account, day from changed_days');
  }
  if (islands) {
    await store.run('delete from _meta_timeline_snapshot');
    await store.run('insert into _meta_timeline_snapshot select account, family, resource_id, valid_from, valid_to, fingerprint from timeline_islands');
  }
  await store.run('delete from _meta_cost_inputs');
  await store.run('insert into _meta_cost_inputs select account, family, record_count, total_amount from cost_inputs_now');
  await store.run('delete from _meta_cost_changes');
  await recordRefresh(store, TABLE, hash);
  return { kind: full ? 'full' : 'incremental', rows, removed, days, written: { [TABLE]: rows } };
}

/**
 * For a back-test on the data as it was (alerts --as-of): the raw tables are shadowed by temp tables of the same
 * names, so the materialised tables are shadowed too, computed from them; dropShadowedMaterialized removes them.
 * (Temp tables are found before the database's own, by every view that names them.)
 */
export async function shadowMaterialized(store: Store): Promise<void> {
  await store.run(`create or replace temp table ${TABLE} as ${sql('cost_daily_rows')}`, { range_from: '-infinity', range_to: 'infinity' });
  for (const d of DERIVED) await store.run(`create or replace temp table ${d.table} as select * from ${d.view}`);
}

export async function dropShadowedMaterialized(store: Store): Promise<void> {
  for (const table of [...DERIVED.map((d) => d.table), TABLE]) await store.run(`drop table if exists temp.main.${table}`);
}
