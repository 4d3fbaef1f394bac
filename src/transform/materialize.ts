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
import { readSqlFolder, type SqlFile } from './sql-files.ts';

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

let files: Map<string, SqlFile> | undefined;

function sql(name: string): string {
  files ??= new Map(readSqlFolder('materialize').map((f) => [f.name, f]));
  const file = files.get(name);
  if (!file) throw new Error(`sql/materialize/${name}.sql is missing`);
  return file.sql;
}

/** What the table is computed from: the view files (their hash, as applied) and the refresh SQL itself. */
async function inputsHash(store: Store): Promise<string> {
  const applied = await store.one<{ views_hash: string }>('select views_hash from _meta_applied_views');
  const hash = createHash('sha256').update(applied?.views_hash ?? 'no views recorded');
  sql('changed_cost'); // read the folder once per process, as the statements themselves are
  for (const f of files!.values()) hash.update(`${f.name}\n${f.sql}\n`);
  return hash.digest('hex');
}

async function count(store: Store, query: string): Promise<number> {
  return Number((await store.one<{ n: string }>(`select count(*)::varchar as n from (${query})`))?.n ?? 0);
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

/**
 * The range of bucket starts that holds every day the marks name (unbounded where a mark is), as timestamps for the
 * view and as days [fromDay, toDay) for the table – a bound DuckDB prunes row groups by, before the exact test.
 */
async function changedRange(store: Store): Promise<{ from: string; to: string; fromDay: string; toDay: string }> {
  const r = await store.one<{ from: string | null; to: string | null }>(
    `select
         case when bool_or(from_day is null) then null else strftime(min(from_day), '%Y-%m-%d') end as "from",
         case when bool_or(to_day is null) then null else strftime(max(to_day), '%Y-%m-%d') end as "to"
     from _meta_cost_changes`,
  );
  const fromDay = r?.from ?? '-infinity';
  const toDay = r?.to ?? 'infinity';
  return { from: r?.from ? `${r.from}T00:00:00Z` : '-infinity', to: r?.to ? `${r.to}T00:00:00Z` : 'infinity', fromDay, toDay };
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

async function storedHash(store: Store, table: string): Promise<string | undefined> {
  return (await store.one<{ inputs_hash: string }>(`select inputs_hash from _meta_materialized where name = $1`, [table]))?.inputs_hash;
}

async function recordRefresh(store: Store, table: string, hash: string): Promise<void> {
  await store.run(`insert or replace into _meta_materialized values ($name, $hash, now(), (select count(*) from ${table}))`, { name: table, hash });
}

/** The account-days of fct_cost_daily's rows that the marks name. */
// The macro's arguments are qualified: unqualified, `account` inside its subquery would name the mark's own column
// (_meta_cost_changes has account, family and resource_id too), and every mark would match every row.
const CHANGED_DAYS = `insert into changed_days
    select distinct f.account, f.day from ${TABLE} as f
    where f.day >= $from_day::date and f.day < $to_day::date and changed_cost(f.account, f.family, f.resource_id, f.day)`;

/** `islands`: the timeline's islands were computed (temp table timeline_islands) and the snapshot follows them. */
async function refreshCostDaily(store: Store, hash: string, full: boolean, islands: boolean): Promise<RefreshSummary> {
  await markChanges(store, full, islands);
  const marks = await count(store, 'select 1 from _meta_cost_changes');
  if (marks === 0 && !full) return { ...NOTHING, written: { [TABLE]: 0 } };
  const before = await count(store, `select 1 from ${TABLE}`);
  let removed: number;
  let rows: number;
  let days: number;
  if (full) {
    // everything again: no row needs testing against the marks
    await store.run(`delete from ${TABLE}`);
    removed = before;
    // in day order, so a later refresh of recent days touches (and a checkpoint rewrites) the last row groups only
    await store.run(`insert into ${TABLE} select * from (${sql('cost_daily_rows')}) order by day`, { range_from: '-infinity', range_to: 'infinity' });
    rows = await count(store, `select 1 from ${TABLE}`);
    days = await count(store, `select distinct account, day from ${TABLE}`);
  } else {
    const range = await changedRange(store);
    const bounds = { from_day: range.fromDay, to_day: range.toDay };
    // the days whose allocation must follow: those of the rows removed and of the rows written
    await store.run(CHANGED_DAYS, bounds);
    await store.run(`delete from ${TABLE} as f where f.day >= $from_day::date and f.day < $to_day::date and changed_cost(f.account, f.family, f.resource_id, f.day)`, bounds);
    const kept = await count(store, `select 1 from ${TABLE}`);
    removed = before - kept;
    await store.run(
      `insert into ${TABLE} select r.* from (${sql('cost_daily_rows')}) as r where changed_cost(r.account, r.family, r.resource_id, r.day) order by r.day`,
      { range_from: range.from, range_to: range.to },
    );
    rows = (await count(store, `select 1 from ${TABLE}`)) - kept;
    await store.run(CHANGED_DAYS, bounds);
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
 * Tables computed per account and day from cost_daily and inputs of their own (the allocation rules, the catalog's
 * list prices): everything again when those inputs (or the views) changed, else the account-days whose cost moved.
 */
const DERIVED = [
  { table: 'fct_cost_allocated', view: 'int_cost_allocated', inputs: 'allocation_rules_hash' },
  { table: 'fct_gpu_hours_daily', view: 'int_gpu_hours_daily', inputs: 'gpu_list_prices_hash' },
  // the cost per built-in scope that unit costs divide (int_scope_cost_daily): grouped once per publish, not per read
  { table: 'fct_scope_cost_daily', view: 'int_builtin_scope_cost_daily', inputs: 'scope_cost_inputs_hash' },
] as const;

/** Rows written into the table. `everything`: fct_cost_daily was computed again entirely, so is this table. */
async function refreshDerived(store: Store, viewsHash: string, d: (typeof DERIVED)[number], everything: boolean): Promise<number> {
  const inputs = (await store.one<{ inputs_hash: string; yields_nothing?: boolean }>(sql(d.inputs)))!;
  const hash = `${viewsHash}:${inputs.inputs_hash}`;
  const current = !everything && (await storedHash(store, d.table)) === hash;
  if (inputs.yields_nothing) {
    // the view has no rows under these inputs (an account without allocation rules): evaluating it over the changed
    // days costs a scan of them for nothing. Computed under the same inputs, the table is already empty; rules added
    // later change the hash, and the next refresh computes everything under them.
    if (current) return 0;
    await store.run(`delete from ${d.table}`);
    await recordRefresh(store, d.table, hash);
    return 0;
  }
  let written: number;
  if (!current) {
    await store.run(`delete from ${d.table}`);
    await store.run(`insert into ${d.table} select * from ${d.view} order by day`);
    written = await count(store, `select 1 from ${d.table}`);
  } else {
    const days = await store.one<{ first: string | null; last: string | null }>('select min(day)::varchar as first, max(day)::varchar as last from changed_days');
    if (!days?.first) return 0;
    const bounds = { first: days.first, last: days.last };
    // the day range lets DuckDB skip row groups (and filter cost_daily before the view's own work); the semi join keeps the exact days
    await store.run(
      `delete from ${d.table} as f
       where f.day between $first::date and $last::date
           and exists (select 1 from changed_days as c where c.account = f.account and c.day = f.day)`,
      bounds,
    );
    const kept = await count(store, `select 1 from ${d.table}`);
    await store.run(
      `insert into ${d.table}
       select v.* from ${d.view} as v
       semi join changed_days as c on c.account = v.account and c.day = v.day
       where v.day between $first::date and $last::date
       order by v.day`,
      bounds,
    );
    written = (await count(store, `select 1 from ${d.table}`)) - kept;
  }
  await recordRefresh(store, d.table, hash);
  return written;
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
