// The drill-down of `gpuledger serve`: family → template / endpoint / GPU type → resource → its daily cost, each level
// a preset of the explorer (its query over cost_daily, the semantic layer's dimensions) for the period. Every level shows its groups' daily cost as a chart, then a table of the groups
// with each one's share and the level's total; titles name what they show (the family's label, the resource's name),
// the path back is a breadcrumb, and each level opens in the explorer with the same range, grouping and filters.
// The SQL is the explorer's (explore/build-query.ts): what the request names is a bound parameter there.
import { COMPONENT_LABELS, COST_FAMILIES, isCostFamily } from '../model/index.ts';
import { DIMENSIONS, MEASURES, type DimensionName } from '../model/semantic.ts';
import { breadcrumbs, chartRow, dataTable, hrefWith, html, rowsNote, section, tableTools, type Link, type Markup, type TableColumn } from '../present/index.ts';
import { columnHeading, groupChartData, groupChartSvg, queryAll, resetReportVariables, setReportClock } from '../report/index.ts';
import { csvQuery } from '../explore/build-query.ts';
import { parseExploreRequest, type PlainDimension } from '../explore/request.ts';
import { decimalStringToMicros, MICROS_PER_DOLLAR, microsToDecimalString } from '../util/decimal.ts';
import type { Store } from '../store/database.ts';
import { PAGE_ROWS, PageError, periodForm, servedPage, servedPeriod, type PageContext } from './pages.ts';

// a family's second level: the dimensions of the semantic layer a family's cost splits by (semantic.ts)
const LEVEL_TWO = ['template', 'endpoint', 'gpu_type'] as const satisfies readonly DimensionName[];
type Dimension = (typeof LEVEL_TWO)[number];
const isLevelTwo = (d: string): d is Dimension => (LEVEL_TWO as readonly string[]).includes(d);
const nameField = (d: Dimension) => `${DIMENSIONS[d].column}_name`;

const familyLabel = (family: string) => (isCostFamily(family) ? COST_FAMILIES[family].label : family);
const componentLabel = (c: string) => (Object.hasOwn(COMPONENT_LABELS, c) ? COMPONENT_LABELS[c as keyof typeof COMPONENT_LABELS] : c);

interface Path {
  period?: string;
  family?: string;
  by?: Dimension;
  value?: string;
  resource?: string;
}

const drillHref = (p: Path) => hrefWith('/drill', { period: p.period, family: p.family, by: p.by, value: p.value, resource: p.resource });

/** The same view in the explorer (its URL parameters: from, to, by, repeatable filter=<dimension>:<value>). */
function exploreHref(range: { start: string; end: string }, by: PlainDimension, p: Path): string {
  const filter = [p.family !== undefined ? `family:${p.family}` : '', p.by && p.value !== undefined ? `${p.by}:${p.value}` : '', p.resource !== undefined ? `resource:${p.resource}` : ''].filter(Boolean);
  return hrefWith('/explore', { from: range.start, to: range.end, by, filter });
}

interface Level {
  id: string;
  title: string;
  /** The explorer's grouping the level reads: the level is that explorer view, per day (its link opens it). */
  by: PlainDimension;
  /** The table's rows: the grouping's groups, or the days the groups add up in (a resource's daily cost). */
  rows: 'groups' | 'days';
  /** The table's key column, and its heading where the semantic layer names it (else the column's own heading). */
  field: string;
  header?: string;
  /** A name shown beside the key (the resource's), linked instead of it. */
  nameField?: string;
  /** Or a name the model gives the key (a family's label), shown and linked the same way. */
  label?: { header: string; of: (key: string) => string };
  link?: (key: string) => string;
  chartTitle: string;
  /** false: no chart (the level above draws the same days). */
  chart?: boolean;
  chartLabel?: (group: string) => string;
  /** The explorer's view this level is, as its link: what the level reads. */
  explore: string;
}

interface ExploreCsvRow {
  period_start: string;
  amount: string;
  [column: string]: unknown;
}

/** Each row's share of the total, 0–100, as an exact decimal; null when the total is zero. */
const shareOf = (part: bigint, total: bigint) => (total === 0n ? null : microsToDecimalString((part * 100n * MICROS_PER_DOLLAR) / total));

async function levelSection(store: Store, ctx: PageContext, range: { start: string; end: string }, level: Level): Promise<Markup> {
  // the explorer's own query (explore/build-query.ts over the semantic layer's dimensions): a level is the explorer
  // view its link opens, per day – /drill is the explorer's presets, not an engine of its own
  const request = parseExploreRequest(new URL(level.explore, 'http://drill.invalid').searchParams, range.end);
  const q = csvQuery(request);
  const facts = await store.all<ExploreCsvRow>(q.sql, q.params);
  const column = DIMENSIONS[level.by].column;
  const groups = new Map<string, { name: string; micros: bigint }>();
  for (const f of facts) {
    const key = level.rows === 'days' ? f.period_start : String(f[`${column}_key`]);
    const g = groups.get(key) ?? { name: String(f[`${column}_name`] ?? key), micros: 0n };
    g.micros += decimalStringToMicros(f.amount);
    groups.set(key, g);
  }
  const total = [...groups.values()].reduce((a, g) => a + g.micros, 0n);
  const ordered = [...groups.entries()].sort(([ka, a], [kb, b]) => (level.rows === 'days' ? ka.localeCompare(kb) : a.micros < b.micros ? 1 : a.micros > b.micros ? -1 : ka < kb ? -1 : ka > kb ? 1 : 0));
  const named = level.nameField !== undefined || level.label !== undefined;
  const keyColumn: TableColumn = { field: level.field, header: level.header ?? columnHeading(level.field), unit: level.rows === 'days' ? 'date' : 'text' };
  const nameColumn: TableColumn | undefined = level.label
    ? { field: `${level.field}_label`, header: level.label.header, unit: 'text' }
    : level.nameField !== undefined
      ? { field: level.nameField, header: columnHeading(level.nameField), unit: 'text' }
      : undefined;
  // names first (the resource's name, linked), then the key; the amount stays the last column
  const keyHeader = level.label ? { ...keyColumn, header: `${level.label.header} id` } : keyColumn;
  const columns: TableColumn[] = [...(nameColumn ? [nameColumn, keyHeader] : [keyColumn]), { field: MEASURES.share.columns[0], header: MEASURES.share.label, unit: MEASURES.share.unit }, { field: 'amount', header: columnHeading('amount'), unit: 'usd' }];
  const keyAt = named ? 1 : 0;
  const rows = ordered.map(([key, g]) => [...(named ? [level.label ? level.label.of(key) : g.name, key] : [key]), shareOf(g.micros, total), microsToDecimalString(g.micros)]);
  const table = {
    columns: columns.map((c, i): TableColumn => ({
      ...c,
      total: i === 0 ? ('label' as const) : c.field === 'amount' ? ('sum' as const) : undefined,
      link: i === 0 && level.link ? (_value: unknown, row: readonly unknown[]) => ({ href: level.link!(String(row[keyAt])) }) : undefined,
    })),
    rows: rows.slice(0, PAGE_ROWS),
    totalRows: rows.length,
    totals: { amount: groups.size === 0 ? null : microsToDecimalString(total) },
    emptyText: 'No cost in this period.',
  };
  // chart values are plotted positions; the exact figures are the table's
  const daily = facts.map((f) => ({ day: f.period_start, group: String(f[`${column}_key`] ?? '(none)'), amount: Number(f.amount) }));
  const chart = level.chart !== false && groupChartSvg(level.chartTitle, groupChartData(daily, range, level.chartLabel));
  return section({
    id: level.id,
    title: level.title,
    body: [
      chartRow(chart ? [{ title: level.chartTitle, svg: chart }] : []),
      tableTools({ label: level.title, extra: html`<a class="button" href="${level.explore}">Open in the explorer</a>` }),
      rowsNote({ shown: table.rows.length, total: table.totalRows, totalsOfAll: true }),
      dataTable({ ...table, label: level.title, timeZone: ctx.config.timeZone }),
    ],
  });
}

export async function drillPage(store: Store, ctx: PageContext): Promise<string> {
  const search = ctx.url.searchParams;
  const period = servedPeriod(ctx.url);
  const clock = await setReportClock(store, { periodText: period, periodName: 'period', defaultPeriod: 'month_to_date', budgetMonthly: undefined });
  try {
    const by = (search.get('by') ?? undefined) as Dimension | undefined;
    if (by !== undefined && !isLevelTwo(by)) throw new PageError(400, `by must be ${LEVEL_TWO.join(', ')}, got '${by}'`);
    const p: Path = { period, family: search.get('family') || undefined, by, value: search.get('value') ?? undefined, resource: search.get('resource') || undefined };
    const range = { start: clock.period.start, end: clock.period.end };
    const valueTitle = p.by && p.value !== undefined ? `${DIMENSIONS[p.by].label}: ${p.value}` : undefined;
    const resourceName = p.resource
      ? ((await queryAll(store, 'select any_value(resource_name) from rpt_cost_detail where resource_id = $resource', { resource: p.resource }, 'drill-down resource name')).rows[0]?.[0] as string | null) ?? p.resource
      : undefined;
    const crumbs: Link[] = [{ label: 'All families', href: drillHref({ period: p.period }) }];
    if (p.family) crumbs.push({ label: familyLabel(p.family), href: drillHref({ period: p.period, family: p.family }) });
    if (valueTitle) crumbs.push({ label: valueTitle, href: drillHref({ ...p, resource: undefined }) });
    if (p.resource) crumbs.push({ label: resourceName!, href: drillHref(p) });
    const level = (l: Level) => levelSection(store, ctx, range, l);
    const parts: Markup[] = [breadcrumbs('Drill-down path', crumbs)];
    if (p.resource) {
      parts.push(
        await level({
          id: 's-resource',
          title: `Daily cost of ${resourceName}`,
          by: 'component',
          rows: 'days',
          field: 'day',
          chartLabel: componentLabel,
          chartTitle: `Daily cost of ${resourceName} by component`,
          explore: exploreHref(range, 'component', p),
         }),
      );
      // the same days again by component: which part of the resource the money went to
      parts.push(
        await level({
          id: 's-components',
          title: `${resourceName} by component`,
          by: 'component',
          rows: 'groups',
          field: 'component',
          chart: false,
          chartTitle: '',
          explore: exploreHref(range, 'component', p),
        }),
      );
    } else if (!p.family) {
      parts.push(
        await level({
          id: 's-families',
          title: 'Cost by family',
          by: 'family',
          rows: 'groups',
          field: 'family',
          label: { header: DIMENSIONS.family.label, of: familyLabel },
          link: (family) => drillHref({ period: p.period, family }),
          chartTitle: 'Daily cost by family',
          chartLabel: familyLabel,
          explore: exploreHref(range, 'family', p),
        }),
      );
    } else if (!valueTitle) {
      for (const key of LEVEL_TWO) {
        const d = DIMENSIONS[key];
        parts.push(
          await level({
            id: `s-${key}`,
            title: `${familyLabel(p.family)} by ${d.word}`,
            by: key,
            rows: 'groups',
            field: nameField(key),
            header: d.label,
            link: (value) => drillHref({ period: p.period, family: p.family, by: key, value }),
            chartTitle: `Daily cost of ${familyLabel(p.family)} by ${d.word}`,
            explore: exploreHref(range, key, p),
          }),
        );
      }
    } else {
      parts.push(
        await level({
          id: 's-resources',
          title: `Resources of ${familyLabel(p.family)} · ${valueTitle}`,
          by: 'resource',
          rows: 'groups',
          field: 'resource_id',
          nameField: 'resource_name',
          link: (resource) => drillHref({ ...p, resource }),
          chartTitle: `Daily cost by resource`,
          explore: exploreHref(range, 'resource', p),
        }),
      );
    }
    return servedPage(ctx, 'Drill down', [`${clock.period.title} · amounts in USD`], html`${parts}`, periodForm(ctx.url, p.period));
  } finally {
    await resetReportVariables(store);
  }
}
