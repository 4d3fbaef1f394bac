// `allocation explain`: for each resource which rule put its cost where, the rules that gave their value to nothing,
// and the largest resources no rule matched – read from the same views that allocate, so it explains what they do.
import { readSqlFile } from '../transform/sql-files.ts';
import type { Store } from '../store/database.ts';
import { UsageError } from '../util/errors.ts';

export interface ExplainOptions {
  category?: string;
  resource?: string;
  /** How many of the largest unallocated resources to list. */
  top?: number;
}

/** A resource's cost put in a category's value: by which rule, matched on what. */
export interface ResourceExplanation extends UnallocatedResource {
  rule: number | null;
  matched_on: string;
}

export interface UnusedRule {
  category: string;
  rule: number;
  value: string;
  match: string;
  reason: string;
}

export interface UnallocatedResource {
  category: string;
  account: string;
  family: string;
  resource_id: string | null;
  resource_name: string | null;
  value: string;
  amount: string;
}

export interface Explanation {
  resources: ResourceExplanation[];
  unusedRules: UnusedRule[];
  unallocated: UnallocatedResource[];
}

export async function explainAllocation(store: Store, options: ExplainOptions = {}): Promise<Explanation> {
  const categories = (await store.all<{ category: string }>(`select category from _meta_allocation_categories order by category`)).map((r) => r.category);
  if (categories.length === 0) {
    throw new UsageError('no allocation categories are configured: add allocation.categories to the config file (see docs/allocation.md)');
  }
  if (options.category !== undefined && !categories.includes(options.category)) {
    throw new UsageError(`--category '${options.category}' is not configured (configured: ${categories.join(', ')})`);
  }
  const category = options.category ?? null;
  const resource = options.resource ?? null;
  return {
    resources: await store.all<ResourceExplanation & Record<string, unknown>>(readSqlFile('allocation', 'explain_resources'), [category, resource]),
    unusedRules: await store.all<UnusedRule & Record<string, unknown>>(readSqlFile('allocation', 'explain_unused_rules'), [category]),
    unallocated: await store.all<UnallocatedResource & Record<string, unknown>>(readSqlFile('allocation', 'explain_unallocated'), [category, options.top ?? 10]),
  };
}
