// The drill-down of `gpuledger serve`: family → template / endpoint / GPU type → resource → its daily cost, over
// rpt_cost_detail for the period. Every level shows its groups' daily cost as a chart, then a table of the groups
// with each one's share and the level's total; titles name what they show (the family's label, the resource's name),
// the path back is a breadcrumb, and each level opens in the explorer with the same range, grouping and filters.
// Every SQL fragment is one of the fixed ones below; what the request names is bound as a parameter.
import { COMPONENT_LABELS, COST_FAMILIES, isCostFamily } from '../model/index.ts';
import { breadcrumbs, chartRow, dataTable, hrefWith, html, rowsNote, section, tableTools, type Link, type Markup, type TableColumn } from '../present/index.ts';
import { groupChartData, groupChartSvg, queryAll, resetReportVariables, setReportClock } from '../report/index.ts';
import type { Store } from '../store/database.ts';
import { PageError, periodForm, resultTable, servedPage, servedPeriod, type PageContext } from './pages.ts';

const DIMENSIONS = {
  template: { field: 'template_name', label: 'Template', plural: 'template' },
  endpoint: { field: 'endpoint_name', label: 'Endpoint', plural: 'endpoint' },
  gpu_type: { field: 'gpu_type_name', label: 'GPU type', plural: 'GPU type' },
} as const;
type Dimension = keyof typeof DIMENSIONS;

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
function exploreHref(range: { start: string; end: string }, by: string, p: Path): string {
  const filter = [p.family !== undefined ? `family:${p.family}` : '', p.by && p.value !== undefined ? `${p.by}:${p.value}` : '', p.resource !== undefined ? `resource:${p.resource}` : ''].filter(Boolean);
  return hrefWith('/explore', { from: range.start, to: range.end, by, filter });
}

interface Level {
  id: string;
  title: string;
  /** The SQL of the group key (a fixed fragment) and the name of its column. */
  key: { sql: string; field: string };
  /** A name shown beside the key (the resource's), linked instead of it. */
  name?: { sql: string; field: string };
  /** Or a name the model gives the key (a family's label), shown and linked the same way. */
  label?: { header: string; of: (key: string) => string };
  link?: (key: string) => string;
  chartTitle: string;
  /** What the chart stacks (a fixed fragment): the key unless said; null: no chart (the one above says it). */
  chartKey?: string | null;
  chartLabel?: (group: string) => string;
  explore: string;
  order?: string;
}

async function levelSection(store: Store, ctx: PageContext, where: string, params: Record<string, string>, range: { start: string; end: string }, level: Level): Promise<Markup> {
  const name = level.name ? `, coalesce(any_value(${level.name.sql}), ${level.key.sql}) as ${level.name.field}` : '';
  const rows = await queryAll(
    store,
    `select ${level.key.sql} as ${level.key.field}${name}, 100 * sum(amount) / nullif(sum(sum(amount)) over (), 0) as share_pct, sum(amount) as amount
       from rpt_cost_detail where ${where} group by ${level.key.sql} order by ${level.order ?? `amount desc, ${level.key.field}`}`,
    params,
    'drill-down',
  );
  const total = await queryAll(store, `select sum(amount) as amount from rpt_cost_detail where ${where}`, params, 'drill-down total');
  const chartKey = level.chartKey === undefined ? level.key.sql : level.chartKey;
  const daily = chartKey === null ? undefined : await queryAll(store, `select day::varchar as day, ${chartKey} as g, sum(amount)::double as amount from rpt_cost_detail where ${where} group by all`, params, 'drill-down chart');
  const table = resultTable(rows, { emptyText: 'No cost in this period.' });
  if (level.label) {
    const { header, of } = level.label;
    table.columns.splice(0, 1, { ...table.columns[0]!, header: `${header} id` }, { ...table.columns[0]!, field: `${level.key.field}_label`, header });
    table.rows = table.rows.map(([k, ...more]) => [k, of(String(k)), ...more]);
  }
  // names first (the resource's name, linked), then the key; the amount stays the last column
  if (level.name ?? level.label) {
    const [key, label, ...rest] = table.columns;
    table.columns = [label!, key!, ...rest];
    table.rows = table.rows.map(([k, n, ...more]) => [n, k, ...more]);
  }
  const keyAt = level.name ?? level.label ? 1 : 0;
  table.columns = table.columns.map((c, i): TableColumn => ({
    ...c,
    header: c.field === 'share_pct' ? 'Share' : c.header,
    total: i === 0 ? 'label' : c.field === 'amount' ? 'sum' : undefined,
    link: i === 0 && level.link ? (_value, row) => ({ href: level.link!(String(row[keyAt])) }) : undefined,
  }));
  table.totals = { amount: total.rows[0]?.[0] ?? null };
  // chart values are plotted positions; the exact figures are the table's
  const chart = daily && groupChartSvg(level.chartTitle, groupChartData(daily.rows.map(([day, g, amount]) => ({ day: String(day), group: String(g ?? '(none)'), amount: Number(amount) })), range, level.chartLabel));
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
    if (by !== undefined && !Object.hasOwn(DIMENSIONS, by)) throw new PageError(400, `by must be ${Object.keys(DIMENSIONS).join(', ')}, got '${by}'`);
    const p: Path = { period, family: search.get('family') || undefined, by, value: search.get('value') ?? undefined, resource: search.get('resource') || undefined };
    const range = { start: clock.period.start, end: clock.period.end };
    const where = ['day between $start::date and $end::date'];
    const params: Record<string, string> = { ...range };
    if (p.family) (where.push('family = $family'), (params.family = p.family));
    if (p.by && p.value !== undefined) (where.push(`coalesce(${DIMENSIONS[p.by].field}, '(none)') = $value`), (params.value = p.value));
    if (p.resource) (where.push('resource_id = $resource'), (params.resource = p.resource));
    const filter = where.join(' and ');
    const valueTitle = p.by && p.value !== undefined ? `${DIMENSIONS[p.by].label}: ${p.value}` : undefined;
    const resourceName = p.resource
      ? ((await queryAll(store, 'select any_value(resource_name) from rpt_cost_detail where resource_id = $resource', { resource: p.resource }, 'drill-down resource name')).rows[0]?.[0] as string | null) ?? p.resource
      : undefined;
    const crumbs: Link[] = [{ label: 'All families', href: drillHref({ period: p.period }) }];
    if (p.family) crumbs.push({ label: familyLabel(p.family), href: drillHref({ period: p.period, family: p.family }) });
    if (valueTitle) crumbs.push({ label: valueTitle, href: drillHref({ ...p, resource: undefined }) });
    if (p.resource) crumbs.push({ label: resourceName!, href: drillHref(p) });
    const level = (l: Level) => levelSection(store, ctx, filter, params, range, l);
    const parts: Markup[] = [breadcrumbs('Drill-down path', crumbs)];
    if (p.resource) {
      parts.push(
        await level({
          id: 's-resource',
          title: `Daily cost of ${resourceName}`,
          key: { sql: 'day', field: 'day' },
          chartKey: 'component',
          chartLabel: componentLabel,
          chartTitle: `Daily cost of ${resourceName} by component`,
          explore: exploreHref(range, 'component', p),
          order: 'day',
        }),
      );
      // the same days again by component: which part of the resource the money went to
      parts.push(
        await level({
          id: 's-components',
          title: `${resourceName} by component`,
          key: { sql: 'component', field: 'component' },
          chartKey: null,
          chartTitle: '',
          explore: exploreHref(range, 'component', p),
        }),
      );
    } else if (!p.family) {
      parts.push(
        await level({
          id: 's-families',
          title: 'Cost by family',
          key: { sql: 'family', field: 'family' },
          label: { header: 'Family', of: familyLabel },
          link: (family) => drillHref({ period: p.period, family }),
          chartTitle: 'Daily cost by family',
          chartLabel: familyLabel,
          explore: exploreHref(range, 'family', p),
        }),
      );
    } else if (!valueTitle) {
      for (const [key, d] of Object.entries(DIMENSIONS) as [Dimension, (typeof DIMENSIONS)[Dimension]][]) {
        parts.push(
          await level({
            id: `s-${key}`,
            title: `${familyLabel(p.family)} by ${d.plural}`,
            key: { sql: `coalesce(${d.field}, '(none)')`, field: d.field },
            link: (value) => drillHref({ period: p.period, family: p.family, by: key, value }),
            chartTitle: `Daily cost of ${familyLabel(p.family)} by ${d.plural}`,
            explore: exploreHref(range, key, p),
          }),
        );
      }
    } else {
      parts.push(
        await level({
          id: 's-resources',
          title: `Resources of ${familyLabel(p.family)} · ${valueTitle}`,
          key: { sql: 'resource_id', field: 'resource_id' },
          name: { sql: 'resource_name', field: 'resource_name' },
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
