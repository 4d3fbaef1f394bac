// The explorer's SQL, made from the whitelisted fragments of facts.ts and nothing else: the range, the category and
// every filter value are bound parameters ($from, $to, $category, $f0 …), so no text from the URL reaches the SQL.
// Sums stay DECIMAL in DuckDB; the page adds the groups up as exact micro-units (explore-table.ts).
import { addDays } from '../util/utc-days.ts';
import { dimensionSql, factsSource, type DimensionSql, type FactsSource } from './facts.ts';
import type { ComparedRanges } from './coverage.ts';
import { dimensionText, previousRange, type ExploreRequest } from './request.ts';

export interface BuiltQuery {
  sql: string;
  params: Record<string, string>;
}

/** Groups shown by name on the page; the rest add up to "other". */
export const TOP_GROUPS = 10;

const PERIOD: Record<ExploreRequest['granularity'], string> = {
  day: 'day',
  week: "date_trunc('week', day)::date",
  month: "date_trunc('month', day)::date",
};

interface Parts {
  source: FactsSource;
  dims: DimensionSql[];
  /** The filter conditions, ANDed: values of one dimension to include are ORed, exclusions all apply. */
  filters: string;
  /** The account filters alone: what of them applies to a unit cost's quantity too. */
  accountFilters: string;
  params: Record<string, string>;
}

function parts(r: ExploreRequest): Parts {
  const source = factsSource(r);
  const params: Record<string, string> = {};
  if (source.category !== undefined) params.category = source.category;
  const groups = new Map<string, { sql: DimensionSql; exclude: boolean; names: string[] }>();
  r.filters.forEach((f, i) => {
    const name = `f${i}`;
    params[name] = f.value;
    const id = `${f.exclude ? '-' : '+'}${dimensionText(f.dimension)}`;
    const group = groups.get(id) ?? { sql: dimensionSql(source, f.dimension, r), exclude: f.exclude, names: [] };
    group.names.push(`$${name}`);
    groups.set(id, group);
  });
  const condition = (g: { sql: DimensionSql; exclude: boolean; names: string[] }) => ` and ${g.sql.key} ${g.exclude ? 'not in' : 'in'} (${g.names.join(', ')})`;
  const all = [...groups.values()];
  if (r.metric === 'unit_cost') {
    params.unit_metric = r.unitMetric!;
    params.unit_scope = r.unitScope;
  }
  return {
    source,
    dims: r.by.map((d) => dimensionSql(source, d, r)),
    filters: all.map(condition).join(''),
    accountFilters: all.filter((g) => g.sql.key === 'account').map(condition).join(''),
    params,
  };
}

/**
 * A unit cost's denominator per period: the metric's quantity for its scope (usually '', the whole account; a scoped
 * metric's filter is part of the view), of the accounts the view keeps – the other filters choose which cost is
 * divided, not what it is divided by.
 */
function quantitySql(p: Parts, r: ExploreRequest, from: string): string {
  return `select ${PERIOD[r.granularity]} as period_start, day, sum(value)::decimal(38,6) as q
    from metrics_daily
    where metric = $unit_metric and scope = $unit_scope and day between $${from}::date and $to::date${p.accountFilters}
    group by all`;
}

/** The rows of a range: its period, the day, each grouping's key and name (k1, n1, k2, n2) and the value v. */
function factsSql(p: Parts, r: ExploreRequest, from: string, to: string): string {
  const dim = (i: number) => {
    const d = p.dims[i];
    // a single grouping still has k2: one constant, so every join and order below is the same for one or two
    return d ? `${d.key} as k${i + 1}, ${d.name ?? d.key} as n${i + 1}` : `'' as k${i + 1}, '' as n${i + 1}`;
  };
  return `select ${PERIOD[r.granularity]} as period_start, day, ${dim(0)}, ${dim(1)}, ${p.source.value} as v
    from ${p.source.relation}
    where day between $${from}::date and $${to}::date and ${p.source.where}${p.filters}`;
}

/** Each key's name: the latest it had in the range, where the name is not the key itself. */
function namesSql(p: Parts, i: number): string {
  const d = p.dims[i];
  const k = `k${i + 1}`;
  const n = `n${i + 1}`;
  if (!d?.name) return `names${i + 1} as (select distinct ${k}, ${k} as ${n} from facts)`;
  return `names${i + 1} as (select ${k}, arg_max(${n}, day) as ${n} from facts group by ${k})`;
}

/**
 * Every period and group of the range in long form: period_start, `<dim>_key` and `<dim>_name` per grouping, and
 * the metric (`amount` or `gpu_hours`) – exact DECIMALs, so the column adds up to the page's total.
 */
export function csvQuery(r: ExploreRequest): BuiltQuery {
  const p = parts(r);
  const columns = p.dims.flatMap((d, i) => [`c.k${i + 1} as ${d.column}_key`, `names${i + 1}.n${i + 1} as ${d.column}_name`]);
  const joins = p.dims.map((_, i) => `join names${i + 1} using (k${i + 1})`).join(' ');
  const unit = r.metric === 'unit_cost';
  const sql = `with facts as materialized (
    ${factsSql(p, r, 'from', 'to')}
),
cells as (select period_start, k1, k2, sum(v) as v from facts group by all),
${unit ? `quantity as (select period_start, sum(q) as quantity from (${quantitySql(p, r, 'from')}) group by all),\n` : ''}${p.dims.map((_, i) => namesSql(p, i)).join(',\n')}
select c.period_start, ${columns.join(', ')}, c.v as ${p.source.valueColumn}${unit ? ', quantity.quantity' : ''}
from cells as c ${joins}${unit ? ' left join quantity using (period_start)' : ''}
order by c.period_start, c.k1, c.k2`;
  return { sql, params: { ...p.params, from: r.from, to: r.to } };
}

/**
 * What the page draws, in one statement over one read of the range and one of the previous range:
 * - kind 'cell': per period, each of the top groups (rank 1…10) and the rest together (rank 11);
 * - kind 'group': per top group its keys, names, total, the figure the change compares (`compared`: the range's days
 *   `compared` names, coverage.ts) and the previous range's figure for as many days (`previous`); rank 11 is "other".
 * Without `compared`, the change compares the whole range with the whole previous one.
 */
export function pageQuery(r: ExploreRequest, compared?: Pick<ComparedRanges, 'current' | 'previous'>): BuiltQuery {
  const p = parts(r);
  const previous = previousRange(r.from, r.to);
  const { current: cmp, previous: prev } = compared ?? { current: { from: r.from, to: r.to }, previous };
  // no ended day to compare: windows that hold no day, so every compared figure is null and so is every change
  const cmpTo = cmp?.to ?? addDays(r.from, -1);
  const prevTo = prev?.to ?? addDays(previous.from, -1);
  const other = TOP_GROUPS + 1;
  // one scan covers the range and the previous one: the facts are not stored in day order, so each range read
  // alone would read (and decompress) the whole amount column again
  const sql = `with both_ranges as materialized (
    select *, day >= $from::date as current from (${factsSql(p, r, 'prev_from', 'to')})
),
facts as (select * from both_ranges where current),
cells as (select period_start, k1, k2, sum(v) as v from facts group by all),
totals as (select k1, k2, sum(v) as total from cells group by all),
ranked as (select k1, k2, total, row_number() over (order by total desc, k1, k2) as rank from totals),
top as (select * from ranked where rank <= ${TOP_GROUPS}),
${namesSql(p, 0)},
${namesSql(p, 1)},
previous as (select k1, k2, sum(v) as v from both_ranges where not current and day <= $prev_to::date group by all),
compared as (select k1, k2, sum(v) as v from facts where day <= $cmp_to::date group by all),
${r.metric === 'unit_cost' ? `quantity as (select *, day >= $from::date as current from (${quantitySql(p, r, 'prev_from')})),` : ''}
final as (
    select 'cell' as kind, c.period_start, coalesce(t.rank, ${other}) as rank, null as k1, null as n1, null as k2, null as n2, sum(c.v) as v, null as previous, null as compared
    from cells as c left join top as t using (k1, k2)
    group by all
    union all
    select 'group', null, t.rank, t.k1, names1.n1, t.k2, names2.n2, t.total, pr.v, cmp.v
    from top as t
    left join previous as pr using (k1, k2)
    left join compared as cmp using (k1, k2)
    left join names1 using (k1)
    left join names2 using (k2)
    union all
    select 'group', null, ${other}, null, null, null, null,
        (select sum(total) from ranked where rank > ${TOP_GROUPS}),
        (select sum(pr.v) from previous as pr anti join top using (k1, k2)),
        (select sum(cmp.v) from compared as cmp anti join top using (k1, k2))${
    r.metric === 'unit_cost'
      ? `
    union all
    select 'quantity', period_start, 0, null, null, null, null, sum(q), null, null from quantity where current group by period_start
    union all
    select 'quantity_previous', null, 0, null, null, null, null, sum(q), null, null from quantity where not current and day <= $prev_to::date
    union all
    select 'quantity_compared', null, 0, null, null, null, null, sum(q), null, null from quantity where current and day <= $cmp_to::date`
      : ''
  }
)
select * from final order by kind, rank, period_start`;
  return { sql, params: { ...p.params, from: r.from, to: r.to, prev_from: previous.from, prev_to: prevTo, cmp_to: cmpTo } };
}

/** Whether a filter's value occurs in the facts at all (any day): an unknown one is refused, not shown as $0. */
export function valueExistsQuery(r: ExploreRequest, index: number): BuiltQuery {
  const source = factsSource(r);
  const f = r.filters[index]!;
  const d = dimensionSql(source, f.dimension, r);
  const params: Record<string, string> = { value: f.value };
  if (source.category !== undefined) params.category = source.category;
  return { sql: `select exists (select 1 from ${source.relation} where ${source.where} and ${d.key} = $value) as found`, params };
}

/** Whether the metric a unit cost divides by has a whole-account quantity, and which metrics have one. */
export function unitMetricsQuery(): BuiltQuery {
  return { sql: `select distinct metric from metrics_daily where scope = '' order by metric`, params: {} };
}

/** Some of a dimension's values, to name what is accepted when a filter's value is not there. */
export function someValuesQuery(r: ExploreRequest, index: number, limit: number): BuiltQuery {
  const source = factsSource(r);
  const d = dimensionSql(source, r.filters[index]!.dimension, r);
  const params: Record<string, string> = {};
  if (source.category !== undefined) params.category = source.category;
  return { sql: `select distinct ${d.key} as value from ${source.relation} where ${source.where} order by 1 limit ${limit}`, params };
}
