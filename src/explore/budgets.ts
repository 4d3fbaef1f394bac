// Which budgets of the config a view is about: a budget is drawn on the chart only where it watches exactly what the
// view shows – cost, its period the view's granularity, its scope (account, family, template, endpoint, GPU type, or
// one allocation value) exactly the view's include filters, and nothing excluded. Anything else would compare a
// budget with a different sum.
import type { BudgetRule } from '../config/alerts.ts';
import { dimensionText, type ExploreRequest } from './request.ts';

export interface DrawnBudget {
  name: string;
  /** Exact decimal text, per period. */
  amount: string;
}

/** A budget's scope as the explorer's filters (`<dimension>:<value>`), sorted: the view whose sum the budget watches. */
export function scopeFilters(b: BudgetRule): string[] {
  const s = b.scope;
  const out: string[] = [];
  if (b.account !== undefined) out.push(`account:${b.account}`);
  if (s.family !== undefined) out.push(`family:${s.family}`);
  if (s.template !== undefined) out.push(`template:${s.template}`);
  if (s.endpoint !== undefined) out.push(`endpoint:${s.endpoint}`);
  if (s.gpuType !== undefined) out.push(`gpu_type:${s.gpuType}`);
  if (s.category !== undefined && s.value !== undefined) out.push(`category:${s.category}:${s.value}`);
  return out.sort();
}

export function matchingBudgets(budgets: readonly BudgetRule[], r: ExploreRequest): DrawnBudget[] {
  if (r.metric !== 'cost' || r.filters.some((f) => f.exclude)) return [];
  const view = r.filters.map((f) => `${dimensionText(f.dimension)}:${f.value}`).sort();
  return budgets
    .filter((b) => b.period === r.granularity)
    .filter((b) => {
      const scope = scopeFilters(b);
      return scope.length === view.length && scope.every((s, i) => s === view[i]);
    })
    .map((b) => ({ name: b.name, amount: String(b.amount) }));
}
