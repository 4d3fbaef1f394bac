// What a writing session stores from the config before the views read it: the allocation rules
// (allocation/load-rules.ts) and the budgets (load-budgets.ts), so the views of the published file answer with the
// config of the last write – for external DuckDB clients too.
import { storingRules } from '../allocation/load-rules.ts';
import type { Config } from '../config/schema.ts';
import type { Store } from '../store/database.ts';
import { loadBudgets } from './load-budgets.ts';

/** For a writing session's `prepare`. */
export function storingConfig(config: Pick<Config, 'allocation' | 'alerts'>): (store: Store) => Promise<void> {
  const rules = storingRules(config.allocation);
  return async (store) => {
    await rules(store);
    await loadBudgets(store, config.alerts.budgets);
  };
}
