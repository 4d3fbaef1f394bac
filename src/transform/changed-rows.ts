// Where a refresh's changed rows lie (from the marks in _meta_cost_changes), as bounds DuckDB prunes row groups and raw
// rows by before materialize.ts applies the exact test: what keeps a refresh's cost to what changed, not to the
// history's length.
import type { SqlSession as Store } from './sql-session.ts';

/** Days [from, to) as the view's timestamps and the table's days; a null end is unbounded. */
export interface DayRange {
  from: string;
  to: string;
  fromDay: string;
  toDay: string;
}

export function dayRange(from: string | null, to: string | null): DayRange {
  return { from: from ? `${from}T00:00:00Z` : '-infinity', to: to ? `${to}T00:00:00Z` : 'infinity', fromDay: from ?? '-infinity', toDay: to ?? 'infinity' };
}

/** Whether the days of `inner` all lie in `outer` ('-infinity' and 'infinity' compare as their words do not: tested apart). */
export function within(inner: DayRange, outer: DayRange): boolean {
  const fromOk = outer.fromDay === '-infinity' || (inner.fromDay !== '-infinity' && inner.fromDay >= outer.fromDay);
  const toOk = outer.toDay === 'infinity' || (inner.toDay !== 'infinity' && inner.toDay <= outer.toDay);
  return fromOk && toOk;
}

/** More resources than this in the marks and their rows are found by the day range alone (a parameter per id). */
const MAX_LISTED_RESOURCES = 500;

/**
 * Where the changed rows lie, as bounds DuckDB prunes row groups and raw rows by before the exact test (changed_cost):
 * `days`, the range holding every day a mark of a whole family names; `resources`, for the marks of single resources
 * (an inventory change, often from the beginning of time: a resource first seen names its whole history) whose days
 * lie outside that range, their range and their ids – so a pod renamed recomputes that pod's history, not the
 * account's.
 */
export interface ChangedRows {
  days?: DayRange;
  resources?: { range: DayRange; ids?: string[] };
}

export async function changedRows(store: Store): Promise<ChangedRows> {
  const ranges = await store.all<{ by_resource: boolean; from: string | null; to: string | null; ids: string }>(
    `select
         resource_id is not null as by_resource,
         case when bool_or(from_day is null) then null else strftime(min(from_day), '%Y-%m-%d') end as "from",
         case when bool_or(to_day is null) then null else strftime(max(to_day), '%Y-%m-%d') end as "to",
         to_json(list(distinct resource_id) filter (where resource_id is not null))::varchar as ids
     from _meta_cost_changes
     group by 1`,
  );
  const whole = ranges.find((r) => !r.by_resource);
  const single = ranges.find((r) => r.by_resource);
  const out: ChangedRows = {};
  if (whole) out.days = dayRange(whole.from, whole.to);
  if (single) {
    const ids = (JSON.parse(single.ids) as string[]).sort();
    out.resources = { range: dayRange(single.from, single.to), ids: ids.length <= MAX_LISTED_RESOURCES ? ids : undefined };
  }
  return out;
}

/**
 * The test that narrows rows of fct_cost_daily (or of cost_daily_rows) to those a mark may name, before the exact
 * one, with its parameters: within the days of the family marks, or one of the marked resources within theirs.
 * `outsideDays`: the resources' rows only, none within the family marks' days (those are computed with them).
 */
export function candidates(alias: string, c: ChangedRows, outsideDays = false): { where: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const inDays = (r: DayRange, p: string) => {
    params[`${p}_from`] = r.fromDay;
    params[`${p}_to`] = r.toDay;
    return `(${alias}.day >= $${p}_from::date and ${alias}.day < $${p}_to::date)`;
  };
  const parts: string[] = [];
  if (c.days && !outsideDays) parts.push(inDays(c.days, 'days'));
  if (c.resources) {
    const { range, ids } = c.resources;
    let test = inDays(range, 'res');
    if (ids) {
      ids.forEach((id, i) => (params[`id${i}`] = id));
      test += ` and ${alias}.resource_id in (${ids.map((_, i) => `$id${i}`).join(', ')})`;
    }
    if (outsideDays && c.days) test += ` and not ${inDays(c.days, 'days')}`;
    parts.push(`(${test})`);
  }
  return { where: parts.length > 0 ? `(${parts.join(' or ')})` : 'false', params };
}
