// Readers answer with the allocation rules of the config they were given (issue 18 §7). Writers store the config's
// rules in _meta_allocation_* and compute fct_cost_allocated under them; a reader opens the published file read-only
// and cannot change either. So when its config's rules differ from the stored ones, temp tables of the same names hold
// its rules on its own connection – DuckDB resolves temp before main, also inside views – and fct_cost_allocated is
// shadowed by what int_cost_allocated computes under them. Same rules: nothing to do, the table is read as it is.
// External DuckDB clients see the rules of the last write; rpt_allocation_rules says which and when.
import type { AllocationConfig } from '../config/allocation.ts';
import type { Store } from '../store/database.ts';
import { withReader } from '../store/shared-database.ts';
import { holdsAllocationRules, RULE_COLUMNS, ruleRows } from './load-rules.ts';

const SHADOWED = 'fct_cost_allocated';

/** Make `store` answer with `allocation`'s rules; the returned function undoes it. */
export async function answerWithRules(store: Store, allocation: AllocationConfig): Promise<() => Promise<void>> {
  if (await holdsAllocationRules(store, allocation)) return async () => {};
  const rows = ruleRows(allocation);
  const tables = Object.keys(RULE_COLUMNS) as (keyof typeof rows)[];
  const undo = async () => {
    for (const table of [SHADOWED, ...tables]) await store.run(`drop table if exists temp.main.${table}`);
  };
  try {
    for (const table of tables) {
      await store.run(`create temp table ${table} as select * from main.${table} limit 0`);
      const width = RULE_COLUMNS[table].split(',').length;
      // never written to the database: rpt_allocation_rules shows no written time for the rules of this reader's config
      const loadedAt = table === '_meta_allocation_categories' ? ', null' : '';
      for (const row of rows[table]) {
        await store.run(`insert into temp.main.${table} values (${row.map((_, i) => `$${i + 1}`).join(', ')}${loadedAt})`, row.slice(0, width));
      }
    }
    await store.run(`create temp table ${SHADOWED} as select * from int_cost_allocated`);
  } catch (e) {
    await undo();
    throw e;
  }
  return undo;
}

/**
 * Shadow fct_cost_allocated again after something dropped the shadow (a back-test's known-at tables do): the rules
 * tables are still the reader's own, so int_cost_allocated computes under them.
 */
export async function reshadowAllocated(store: Store): Promise<void> {
  await store.run(`create temp table ${SHADOWED} as select * from int_cost_allocated`);
}

/** withReader, answering with the config's allocation rules. */
export async function withRulesReader<T>(dbPath: string, allocation: AllocationConfig, fn: (store: Store) => Promise<T>): Promise<T> {
  return withReader(dbPath, async (store) => {
    const undo = await answerWithRules(store, allocation);
    try {
      return await fn(store);
    } finally {
      await undo();
    }
  });
}
