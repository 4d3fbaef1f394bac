// The tables computed per account and day from cost_daily (fct_cost_daily's followers): refreshed after it, in the
// same transaction, for the account-days whose cost moved (temp table changed_days) or entirely when their own inputs
// or the views changed.
import type { SqlSession as Store } from './sql-session.ts';
import { recordRefresh, rowsChanged, sql, storedHash } from './materialize-common.ts';

/**
 * Tables computed per account and day from cost_daily and inputs of their own (the allocation rules, the catalog's
 * list prices): everything again when those inputs (or the views) changed, else the account-days whose cost moved.
 */
export const DERIVED = [
  { table: 'fct_cost_allocated', view: 'int_cost_allocated', inputs: 'allocation_rules_hash' },
  { table: 'fct_gpu_hours_daily', view: 'int_gpu_hours_daily', inputs: 'gpu_list_prices_hash' },
  // the cost per built-in scope that unit costs divide (int_scope_cost_daily): grouped once per publish, not per read
  { table: 'fct_scope_cost_daily', view: 'int_builtin_scope_cost_daily', inputs: 'scope_cost_inputs_hash' },
] as const;

/** Rows written into the table. `everything`: fct_cost_daily was computed again entirely, so is this table. */
export async function refreshDerived(store: Store, viewsHash: string, d: (typeof DERIVED)[number], everything: boolean): Promise<number> {
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
    written = await rowsChanged(store, `insert into ${d.table} select * from ${d.view} order by day`);
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
    written = await rowsChanged(
      store,
      `insert into ${d.table}
       select v.* from ${d.view} as v
       semi join changed_days as c on c.account = v.account and c.day = v.day
       where v.day between $first::date and $last::date
       order by v.day`,
      bounds,
    );
  }
  await recordRefresh(store, d.table, hash);
  return written;
}
