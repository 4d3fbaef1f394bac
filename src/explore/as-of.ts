// Figures as they were loaded at a past moment. The store keeps only the latest version of a billing record and
// the amounts it replaced (_meta_restatements, with the load that moved them), so the materialised facts cannot
// answer for the past: the raw tables as loaded then are rebuilt in temp tables that shadow the real ones, and the
// fct_* tables computed again from them (transform/known-at.ts, what `alerts --as-of` back-tests on). That reads the
// whole raw history once per request – a past view is rarer than a present one, and exact.
//
// A reader answering with its config's own allocation rules (allocation/reader-rules.ts) shadows fct_cost_allocated
// in the same temp catalog; dropping the as-of shadow drops that too, so it is computed again under the same rules.
import { reshadowAllocated } from '../allocation/reader-rules.ts';
import { dropKnownAt, shadowKnownAt } from '../transform/known-at.ts';
import type { Store } from '../store/database.ts';

async function rulesShadowed(store: Store): Promise<boolean> {
  const row = await store.one<{ n: string | number }>(
    `select count(*) as n from duckdb_tables() where temporary and table_name = 'fct_cost_allocated'`,
  );
  return Number(row?.n ?? 0) > 0;
}

export async function withFiguresAsOf<T>(store: Store, asOf: string | undefined, fn: () => Promise<T>): Promise<T> {
  if (asOf === undefined) return fn();
  const restoreRules = await rulesShadowed(store);
  try {
    await shadowKnownAt(store, new Date(asOf));
    return await fn();
  } finally {
    await dropKnownAt(store);
    if (restoreRules) await reshadowAllocated(store);
  }
}
