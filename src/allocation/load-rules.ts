// The config's allocation rules → the _meta_allocation_* tables (sql/schema/005_allocation.sql). The views read the
// rules from there, so a changed rule applies to all history the next time gpuledger writes, without a re-sync.
import type { AllocationConfig } from '../config/allocation.ts';
import type { Store } from '../store/database.ts';

type Value = string | number | null;

/** Each table's rows for the config's rules, in the tables' column order (the categories' load time aside). */
export function ruleRows(allocation: AllocationConfig) {
  const rows = {
    _meta_allocation_categories: [] as Value[][],
    _meta_allocation_rules: [] as Value[][],
    _meta_allocation_rule_globs: [] as Value[][],
    _meta_allocation_splits: [] as Value[][],
    _meta_allocation_split_targets: [] as Value[][],
  };
  for (const [category, def] of Object.entries(allocation.categories)) {
    rows._meta_allocation_categories.push([category, def.default]);
    for (const [i, rule] of def.rules.entries()) {
      rows._meta_allocation_rules.push([category, i + 1, rule.value]);
      for (const [key, value] of Object.entries(rule.match)) {
        for (const glob of Array.isArray(value) ? value : [value]) rows._meta_allocation_rule_globs.push([category, i + 1, key, glob]);
      }
    }
    for (const [i, split] of def.split.entries()) {
      const method = typeof split.by === 'string' ? split.by : 'percent';
      rows._meta_allocation_splits.push([category, i + 1, split.from, method]);
      for (const to of split.to) {
        const percent = typeof split.by === 'string' ? null : split.by[to]!.toFixed(6);
        rows._meta_allocation_split_targets.push([category, i + 1, to, percent]);
      }
    }
  }
  return rows;
}

/** The columns of each rules table that hold the rules (the categories' load time aside). */
export const RULE_COLUMNS: Record<keyof ReturnType<typeof ruleRows>, string> = {
  _meta_allocation_categories: 'category, default_value',
  _meta_allocation_rules: 'category, rule, value',
  _meta_allocation_rule_globs: 'category, rule, match_key, glob_text',
  _meta_allocation_splits: 'category, split, from_value, method',
  _meta_allocation_split_targets: 'category, split, to_value, percent::varchar',
};

/** For a writing session's `prepare`: store the config's rules before the views and the refresh read them. */
export function storingRules(allocation: AllocationConfig): (store: Store) => Promise<void> {
  return (store) => loadAllocationRules(store, allocation);
}

/**
 * Replace the stored rules with the config's, in one transaction (readers see the old rules or the new). Rules that
 * are already stored are left as they are, so their written time (rpt_allocation_rules) says when they last changed.
 */
export async function loadAllocationRules(store: Store, allocation: AllocationConfig): Promise<void> {
  if (await holdsAllocationRules(store, allocation)) return;
  const rows = ruleRows(allocation);
  await store.transaction(async () => {
    for (const table of Object.keys(RULE_COLUMNS)) await store.run(`delete from ${table}`);
    // a handful of rows from the config file: plain parameterised inserts are the simple and sufficient tool here
    for (const row of rows._meta_allocation_categories) await store.run(`insert into _meta_allocation_categories values ($1, $2, now())`, row);
    for (const row of rows._meta_allocation_rules) await store.run(`insert into _meta_allocation_rules values ($1, $2, $3)`, row);
    for (const row of rows._meta_allocation_rule_globs) await store.run(`insert into _meta_allocation_rule_globs values ($1, $2, $3, $4)`, row);
    for (const row of rows._meta_allocation_splits) await store.run(`insert into _meta_allocation_splits values ($1, $2, $3, $4)`, row);
    for (const row of rows._meta_allocation_split_targets) await store.run(`insert into _meta_allocation_split_targets values ($1, $2, $3, $4::decimal(9,6))`, row);
  });
}

/**
 * Whether the database already holds exactly the config's rules – then a reader needs no writing session to bring
 * them in line (issue 18 §8: `report` must not need write access to the database folder just to read).
 */
export async function holdsAllocationRules(store: Store, allocation: AllocationConfig): Promise<boolean> {
  const want = ruleRows(allocation);
  for (const [table, columns] of Object.entries(RULE_COLUMNS) as [keyof typeof want, string][]) {
    const stored = await store.all(`select ${columns} from ${table}`);
    // both sides sorted the same way here: the stored order (and DuckDB's collation) does not matter
    const have = stored.map((r) => Object.values(r) as Value[]).sort(compareRows);
    const expected = [...want[table]].sort(compareRows);
    if (JSON.stringify(have) !== JSON.stringify(expected)) return false;
  }
  return true;
}

function compareRows(a: Value[], b: Value[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}
