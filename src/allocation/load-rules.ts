// The config's allocation rules → the _meta_allocation_* tables (sql/schema/005_allocation.sql). The views read the
// rules from there, so a changed rule applies to all history the next time gpuledger writes, without a re-sync.
import type { AllocationConfig } from '../config/allocation.ts';
import type { Store } from '../store/database.ts';

const TABLES = [
  '_meta_allocation_categories',
  '_meta_allocation_rules',
  '_meta_allocation_rule_globs',
  '_meta_allocation_splits',
  '_meta_allocation_split_targets',
] as const;

/** Replace the stored rules with the config's, in one transaction (readers see the old rules or the new). */
export async function loadAllocationRules(store: Store, allocation: AllocationConfig): Promise<void> {
  await store.transaction(async () => {
    for (const table of TABLES) await store.run(`delete from ${table}`);
    // a handful of rows from the config file: plain parameterised inserts are the simple and sufficient tool here
    for (const [category, def] of Object.entries(allocation.categories)) {
      await store.run(`insert into _meta_allocation_categories values ($1, $2, now())`, [category, def.default]);
      for (const [i, rule] of def.rules.entries()) {
        await store.run(`insert into _meta_allocation_rules values ($1, $2, $3)`, [category, i + 1, rule.value]);
        for (const [key, value] of Object.entries(rule.match)) {
          for (const glob of Array.isArray(value) ? value : [value]) {
            await store.run(`insert into _meta_allocation_rule_globs values ($1, $2, $3, $4)`, [category, i + 1, key, glob]);
          }
        }
      }
      for (const [i, split] of def.split.entries()) {
        const method = typeof split.by === 'string' ? split.by : 'percent';
        await store.run(`insert into _meta_allocation_splits values ($1, $2, $3, $4)`, [category, i + 1, split.from, method]);
        for (const to of split.to) {
          const percent = typeof split.by === 'string' ? null : split.by[to]!.toFixed(6);
          await store.run(`insert into _meta_allocation_split_targets values ($1, $2, $3, $4::decimal(9,6))`, [category, i + 1, to, percent]);
        }
      }
    }
  });
}
