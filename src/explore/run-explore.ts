// Answering one explorer request on an open store: the request parsed against the data's current day, its category
// and filter values checked against the facts (an unknown one is refused, naming some that exist), then the page's
// or the CSV's statement – on the figures as loaded at `as_of` when asked (as-of.ts), or, with `changed_since`, the
// cells restated since then (changed-since.ts).
import { importedWholeAccountMetrics } from '../metrics/imported-metrics.ts';
import type { Config } from '../config/schema.ts';
import { columnsOf } from '../query/column-kinds.ts';
import type { Store } from '../store/database.ts';
import type { Table } from '../util/table-text.ts';
import { anomalyDays, type AnomalyMark } from './anomalies.ts';
import { withFiguresAsOf } from './as-of.ts';
import { changesSince, changesTable, type Changes } from './changed-since.ts';
import { matchingBudgets, type DrawnBudget } from './budgets.ts';
import { csvQuery, pageQuery, someValuesQuery, unitMetricsQuery, valueExistsQuery } from './build-query.ts';
import { comparedRanges, periodCoverage, type ComparedRanges, type PeriodCoverage } from './coverage.ts';
import { divideMicros, exploreTable, type ExploreTable, type PageRow } from './explore-table.ts';
import { decimalStringToMicros, microsToDecimalString } from '../util/decimal.ts';
import { dimensionText, ExploreRequestError, filterText, parseExploreRequest, parseFilter, type ExploreRequest } from './request.ts';

/** The data's current UTC day: the presets count back from it (report_clock: the data horizon). */
export async function dataToday(store: Store): Promise<string> {
  const row = await store.one<{ today: string }>(`select strftime(as_of_date, '%Y-%m-%d') as today from report_clock`);
  return row!.today;
}

export async function readExploreRequest(store: Store, search: URLSearchParams): Promise<ExploreRequest> {
  return parseExploreRequest(search, await dataToday(store));
}

/** The metrics with a whole-account quantity: what a unit cost can divide by (metrics_daily, every day). */
export async function wholeAccountMetrics(store: Store): Promise<string[]> {
  return (await store.all<{ metric: string }>(unitMetricsQuery().sql)).map((m) => m.metric);
}

/**
 * What the page's metric list offers: the imported metrics with a whole-account quantity, and gpu_hours, which
 * metrics_daily derives for the whole account wherever there is GPU spend. Read from the import alone: listing
 * metrics_daily computes every derived metric of every day, on every page (a request for one is still checked
 * against metrics_daily itself).
 */
export async function offeredUnitMetrics(store: Store): Promise<string[]> {
  const imported = await importedWholeAccountMetrics(store);
  return [...new Set(['gpu_hours', ...imported])].sort();
}

/** A metric scope's kind → the explorer's dimension of the same values (metrics/scope.ts BUILT_IN_SCOPE_KINDS). */
const SCOPE_DIMENSIONS: Record<string, string> = { family: 'family', endpoint: 'endpoint', template: 'template', gpuType: 'gpu_type' };

/**
 * The request with its unit cost's scope: a metric with a whole-account quantity divides every group's cost; a
 * metric imported for one scope only – the README's images of endpoint:sdxl-image-api – divides that scope's cost,
 * so the scope becomes a filter of the view (shown with the others) and its quantity the denominator (issue 38: the
 * README's own metric was refused). A metric counted for several scopes needs the view to name one.
 */
export async function withUnitScope(store: Store, r: ExploreRequest): Promise<ExploreRequest> {
  if (r.metric !== 'unit_cost') return r;
  const known = await wholeAccountMetrics(store);
  if (known.includes(r.unitMetric!)) return r;
  const scopes = (await store.all<{ scope: string }>(`select distinct scope from metrics_daily where metric = $metric and scope <> '' order by scope`, { metric: r.unitMetric! })).map((s) => s.scope);
  const usable = scopes.flatMap((scope) => {
    const at = scope.indexOf(':');
    const dimension = SCOPE_DIMENSIONS[scope.slice(0, at)];
    return dimension === undefined ? [] : [{ scope, filter: `${dimension}:${scope.slice(at + 1)}` }];
  });
  const filters = new Set(r.filters.map(filterText));
  const chosen = usable.length === 1 ? usable[0] : usable.find((u) => filters.has(u.filter));
  if (!chosen) {
    const offered = [...known.map((m) => `unit_cost:${m}`), ...usable.map((u) => `unit_cost:${r.unitMetric} with filter=${u.filter}`)];
    throw new ExploreRequestError(
      scopes.length === 0
        ? `no metric '${r.unitMetric}' with a whole-account quantity in metrics_daily: use ${offered.join(', ') || 'none (gpuledger metrics import brings one)'}`
        : `metric '${r.unitMetric}' is counted for ${scopes.join(', ')}, not the whole account: ${usable.length > 1 ? `add the filter of one scope (${usable.map((u) => `filter=${u.filter}`).join(', ')})` : 'import a whole-account quantity (scope empty) to divide every group'}`,
    );
  }
  return { ...r, unitScope: chosen.scope, filters: filters.has(chosen.filter) ? r.filters : [...r.filters, parseFilter(chosen.filter)] };
}

async function checkValues(store: Store, r: ExploreRequest): Promise<void> {
  const categories = new Set([...r.by, ...r.filters.map((f) => f.dimension)].flatMap((d) => (d.kind === 'category' ? [d.category] : [])));
  if (categories.size > 0) {
    const known = await allocationCategories(store);
    for (const c of categories) {
      if (!known.includes(c)) throw new ExploreRequestError(`no allocation category '${c}': use ${known.length ? known.map((k) => `category:${k}`).join(', ') : 'none (the config has no allocation categories)'}`);
    }
  }
  for (const [i, f] of r.filters.entries()) {
    const exists = valueExistsQuery(r, i);
    const found = await store.one<{ found: boolean }>(exists.sql, exists.params);
    if (found?.found) continue;
    const some = someValuesQuery(r, i, 8);
    const values = (await store.all<{ value: string }>(some.sql, some.params)).map((v) => v.value);
    throw new ExploreRequestError(
      `filter ${filterText(f)}: no ${dimensionText(f.dimension)} '${f.value}' in the data; values include ${values.map((v) => `'${v}'`).join(', ') || 'none'}`,
    );
  }
}

export interface ExploreAnswer {
  request: ExploreRequest;
  table: ExploreTable;
  budgets: DrawnBudget[];
  anomalies: AnomalyMark[];
  /** Each period of the table with how much of it the figures cover (partial weeks, months and days: coverage.ts). */
  coverage: PeriodCoverage[];
  /** The days the change compares (like with like while a day is still loading). */
  compared: ComparedRanges;
}

/** An as_of before the first load: nothing was loaded then, so there are no figures – not figures of $0. */
export interface NothingLoaded {
  request: ExploreRequest;
  /** When the first sync had loaded all it loaded (UTC, to the second), or undefined when the store holds no load. */
  firstLoad: string | undefined;
}

/**
 * How far the figures reach: the data horizon (report_clock: the latest loaded_through), and for figures as loaded at
 * a past moment no further than that moment – nothing was loaded past the wall clock of its load.
 */
async function dataHorizon(store: Store, asOf: string | undefined): Promise<string> {
  const row = await store.one<{ at: string }>(`select strftime(as_of, '%Y-%m-%dT%H:%M:%SZ') as at from report_clock`);
  const horizon = row!.at;
  return asOf !== undefined && new Date(asOf) < new Date(horizon) ? new Date(asOf).toISOString() : horizon;
}

/** The first load's moment when `asOf` is before it (or nothing is loaded at all): the figures then are none. */
export async function nothingLoadedAt(store: Store, r: ExploreRequest): Promise<NothingLoaded | undefined> {
  if (r.asOf === undefined) return undefined;
  // the first sync's end, to the second it ended in: a view as loaded at that moment holds every source that sync
  // loaded (its first source alone may have no spend in the range, and would draw the $0 this verdict exists to
  // avoid); extracted_at has microseconds, hence the round up
  const row = await store.one<{ at: string | null; loaded: boolean | null }>(
    `with first_run as (select run_id from _meta_loads order by extracted_at limit 1)
     select strftime(date_trunc('second', max(extracted_at) filter (where run_id = (select run_id from first_run))
                                + interval 999999 microseconds), '%Y-%m-%dT%H:%M:%SZ') as at,
            min(extracted_at) <= $as_of::timestamptz as loaded
     from _meta_loads`,
    { as_of: r.asOf.at },
  );
  if (row?.loaded) return undefined;
  return { request: r, firstLoad: row?.at ?? undefined };
}

/** The line that says so, for the CSV (which has no page to say it on) and the page's verdict. */
export function nothingLoadedText(n: NothingLoaded): string {
  const at = n.request.asOf!.at;
  return n.firstLoad === undefined ? `nothing had been loaded at ${at}: the store holds no load yet` : `nothing had been loaded at ${at}: the first sync had loaded by ${n.firstLoad}`;
}

/** What the page shows: the answer, or – for an as_of before the first load – that nothing was loaded then. */
export async function exploreView(store: Store, config: Config, request: ExploreRequest): Promise<ExploreAnswer | NothingLoaded> {
  return (await nothingLoadedAt(store, request)) ?? exploreAnswer(store, config, request);
}

export async function exploreAnswer(store: Store, config: Config, request: ExploreRequest): Promise<ExploreAnswer> {
  const r = await withUnitScope(store, request);
  await checkValues(store, r);
  const horizon = await dataHorizon(store, r.asOf?.at);
  const compared = comparedRanges(r.from, r.to, horizon);
  const coverage = periodCoverage(r.from, r.to, r.granularity, horizon);
  return withFiguresAsOf(store, r.asOf?.at, async () => {
    const q = pageQuery(r, compared);
    const rows = (await store.all<PageRow & Record<string, unknown>>(q.sql, q.params)) as PageRow[];
    const table = exploreTable(rows, coverage.map((c) => c.start), r.by.length);
    const anomalies = r.metric === 'cost' ? await anomalyDays(store, r, r.asOf?.at) : [];
    return { request: r, table, budgets: matchingBudgets(config.alerts.budgets, r), anomalies, coverage, compared };
  });
}

/** The cells of the view restated since `changed_since`: before, now and the difference. */
export async function exploreChanges(store: Store, r: ExploreRequest): Promise<Changes> {
  try {
    await checkValues(store, r);
  } catch (error) {
    // a group removed since (a record gone in a later load) is still a filter here: it was in the figures then
    if (!(error instanceof ExploreRequestError)) throw error;
    await withFiguresAsOf(store, r.changedSince?.at, () => checkValues(store, r)).catch(() => Promise.reject(error));
  }
  return changesSince(store, r);
}

/** The CSV's rows, each column kind from its DuckDB type: written as `gpuledger query --format csv` writes a result. */
export async function exploreCsvTable(store: Store, request: ExploreRequest): Promise<Table> {
  if (request.changedSince) return changesTable(await exploreChanges(store, request));
  const r = await withUnitScope(store, request);
  // an empty CSV would read as no spend: a moment before the first load is refused, saying when the first load was
  const nothing = await nothingLoadedAt(store, r);
  if (nothing) throw new ExploreRequestError(`as_of ${r.asOf!.text}: ${nothingLoadedText(nothing)}; ask for a later moment, or leave as_of out for the figures as loaded now`);
  await checkValues(store, r);
  return withFiguresAsOf(store, r.asOf?.at, async () => {
    const q = csvQuery(r);
    const reader = await store.connection.runAndReadAll(q.sql, q.params);
    const table: Table = { columns: columnsOf(reader.columnNames(), reader.columnTypes()), rows: reader.getRowsJson() };
    if (r.metric !== 'unit_cost') return table;
    // the unit cost of each row, divided exactly as the page divides (explore-table.ts)
    const unit = (row: unknown[]) => {
      const [amount, quantity] = row.slice(-2) as [string, string | null];
      const m = quantity === null ? null : divideMicros(decimalStringToMicros(amount), decimalStringToMicros(quantity));
      return m === null ? null : microsToDecimalString(m);
    };
    return { columns: [...table.columns, { name: 'unit_cost', kind: 'exact-number' }], rows: table.rows.map((row) => [...row, unit(row)]) };
  });
}

/** The allocation categories a view can group by (the reader's own rules, allocation/reader-rules.ts). */
export async function allocationCategories(store: Store): Promise<string[]> {
  return (await store.all<{ category: string }>('select category from dim_allocation_category order by category')).map((c) => c.category);
}
