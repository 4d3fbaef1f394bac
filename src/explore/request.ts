// The cost explorer's URL, parsed: every parameter of /explore and /explore.csv checked with zod into a typed
// request, so a view is a link and anything else is one line saying what was wrong and what is accepted. Only the
// shape is checked here; whether a filter's value or a category exists is a question for the data (validate.ts).
import { z } from 'zod';
import { UsageError } from '../util/errors.ts';
import { dayOrMomentProblem, dayProblem, MAX_RANGE_DAYS, parseDayOrMoment, rangeProblem } from '../util/dates.ts';
import { addDays, daysInclusive, monthStart } from '../util/utc-days.ts';
import { ACCEPTED_DIMENSIONS, GRANULARITIES, METRICS, PLAIN_DIMENSIONS, PRESETS, type Granularity, type PlainDimension, type Preset } from '../model/explore-vocabulary.ts';

/** A request /explore cannot answer as asked: serve answers 400 with this one line. */
export class ExploreRequestError extends UsageError {}

export { GRANULARITIES, METRICS, PLAIN_DIMENSIONS, PRESETS, type Granularity, type PlainDimension, type Preset } from '../model/explore-vocabulary.ts';

/** A grouping or a filter's dimension: a column of the facts, or an allocation category by name. */
export type Dimension = { kind: 'plain'; name: PlainDimension } | { kind: 'category'; category: string };

export interface Filter {
  dimension: Dimension;
  value: string;
  exclude: boolean;
}

/** cost, GPU-hours, or the cost per unit of an imported (or derived) business metric (metrics_daily). */
export type Metric = (typeof METRICS)[number] | 'unit_cost';
const METRIC_TEXT = /^(cost|gpu_hours|unit_cost:([A-Za-z0-9_.:-]+))$/;

export interface ExploreRequest {
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Set when the range came from a preset (the form shows it selected). */
  preset: Preset | undefined;
  granularity: Granularity;
  /** One or two groupings. */
  by: Dimension[];
  filters: Filter[];
  metric: Metric;
  /** With metric unit_cost: the business metric whose whole-account quantity divides the cost. */
  unitMetric: string | undefined;
  /**
   * With metric unit_cost: the metric's scope ('' the whole account); a metric counted for one scope only (images of
   * an endpoint) divides that scope's cost, its filter added to the view (run-explore.ts withUnitScope).
   */
  unitScope: string;
  /** Figures as loaded at a past moment: as written in the URL, and the moment (a day means its end), or undefined for now. */
  asOf: { text: string; at: string } | undefined;
  /** The restatements view: each figure as loaded at this moment beside the figure now (changed-since.ts). */
  changedSince: { text: string; at: string } | undefined;
}

/** The longest range one request may cover (every serve page's bound, util/dates.ts). */
export const MAX_DAYS = MAX_RANGE_DAYS;

const ACCEPTED_BY = ACCEPTED_DIMENSIONS;
const PARAMETERS = ['from', 'to', 'preset', 'granularity', 'by', 'filter', 'metric', 'as_of', 'changed_since'] as const;

/** A text checked by one of util/dates.ts's parsers: its refusal is the issue's message, word for word. */
const checkedBy = (problem: (text: string, what: string) => string | undefined, name: string) =>
  z.string().superRefine((text, ctx) => {
    const message = problem(text, name);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message });
  });

/** A day means its end: everything loaded by then. */
const moment = (text: string | undefined) => (text === undefined ? undefined : parseDayOrMoment(text, 'moment'));

const momentText = (name: string) => checkedBy(dayOrMomentProblem, name);
const dayText = (name: string) => checkedBy(dayProblem, name);

const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const rawSchema = z.object({
  from: optional(dayText('from')),
  to: optional(dayText('to')),
  preset: optional(z.enum(PRESETS, { message: `preset must be one of ${PRESETS.join(', ')}` })),
  granularity: optional(z.enum(GRANULARITIES, { message: `granularity must be one of ${GRANULARITIES.join(', ')}` })),
  by: z.array(z.string()).transform((list) => list.filter((b) => b !== '')),
  filter: z.array(z.string()).transform((list) => list.filter((f) => f.trim() !== '')),
  metric: optional(z.string().regex(METRIC_TEXT, 'metric must be cost, gpu_hours or unit_cost:<metric> (a metric of metrics_daily, e.g. unit_cost:images)')),
  as_of: optional(momentText('as_of')),
  changed_since: optional(momentText('changed_since')),
});

export function parseDimension(text: string, what: string): Dimension {
  if ((PLAIN_DIMENSIONS as readonly string[]).includes(text)) return { kind: 'plain', name: text as PlainDimension };
  const category = /^category:(.+)$/.exec(text);
  if (category) return { kind: 'category', category: category[1]! };
  throw new ExploreRequestError(`${what} '${text}' is not a dimension: use ${ACCEPTED_BY}`);
}

export function dimensionText(d: Dimension): string {
  return d.kind === 'plain' ? d.name : `category:${d.category}`;
}

/** `<dim>:<value>` to include, `-<dim>:<value>` to exclude; a category's is `category:<name>:<value>`. */
export function parseFilter(text: string): Filter {
  const exclude = text.startsWith('-');
  const body = exclude ? text.slice(1) : text;
  const category = /^category:([^:]+):(.+)$/s.exec(body);
  if (category) return { dimension: { kind: 'category', category: category[1]! }, value: category[2]!, exclude };
  const at = body.indexOf(':');
  if (at <= 0 || at === body.length - 1) {
    throw new ExploreRequestError(`filter '${text}' must be <dimension>:<value> (or -<dimension>:<value> to exclude), the dimension one of ${ACCEPTED_BY}`);
  }
  return { dimension: parseDimension(body.slice(0, at), 'filter dimension'), value: body.slice(at + 1), exclude };
}

export function filterText(f: Filter): string {
  return `${f.exclude ? '-' : ''}${dimensionText(f.dimension)}:${f.value}`;
}

/** A preset's inclusive days, counted back from `today` (the data's current day, report_clock). */
export function presetRange(preset: Preset, today: string): { from: string; to: string } {
  const month = monthStart(today);
  switch (preset) {
    case 'mtd':
      return { from: month, to: today };
    case 'last-month': {
      const lastDay = addDays(month, -1);
      return { from: monthStart(lastDay), to: lastDay };
    }
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case '90d':
      return { from: addDays(today, -89), to: today };
    case 'ytd':
      return { from: today.slice(0, 5) + '01-01', to: today };
  }
}

/** The same number of days just before [from, to]: what "change" compares with. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const n = daysInclusive(from, to);
  return { from: addDays(from, -n), to: addDays(from, -1) };
}

/**
 * The request a URL asks for. A preset wins over from/to (pick "custom" to type days); with neither, the month to
 * date. `today` is the data's current UTC day.
 */
export function parseExploreRequest(search: URLSearchParams, today: string): ExploreRequest {
  const unknown = [...new Set(search.keys())].filter((k) => !(PARAMETERS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new ExploreRequestError(`unknown parameter '${unknown[0]}': /explore takes ${PARAMETERS.join(', ')}`);
  const single = (name: string) => {
    const all = search.getAll(name);
    if (all.length > 1) throw new ExploreRequestError(`${name} is given ${all.length} times; give it once`);
    return all[0];
  };
  const parsed = rawSchema.safeParse({
    from: single('from'),
    to: single('to'),
    preset: single('preset'),
    granularity: single('granularity'),
    by: search.getAll('by'),
    filter: search.getAll('filter'),
    metric: single('metric'),
    as_of: single('as_of'),
    changed_since: single('changed_since'),
  });
  if (!parsed.success) throw new ExploreRequestError(parsed.error.issues[0]!.message);
  const raw = parsed.data;
  let range: { from: string; to: string };
  if (raw.preset) range = presetRange(raw.preset, today);
  else if (raw.from !== undefined || raw.to !== undefined) {
    if (raw.from === undefined || raw.to === undefined) throw new ExploreRequestError('from and to go together (YYYY-MM-DD each), or use preset=mtd|last-month|7d|30d|90d|ytd');
    range = { from: raw.from, to: raw.to };
  } else range = presetRange('mtd', today);
  const tooLong = rangeProblem(range.from, range.to);
  if (tooLong !== undefined) throw new ExploreRequestError(tooLong);
  const byText = raw.by.length > 0 ? raw.by : ['family'];
  if (byText.length > 2) throw new ExploreRequestError(`by is given ${byText.length} times; one or two groupings`);
  const by = byText.map((b) => parseDimension(b, 'by'));
  if (by.length === 2 && dimensionText(by[0]!) === dimensionText(by[1]!)) throw new ExploreRequestError(`by ${byText[0]} is given twice; the second grouping must differ`);
  const filters = raw.filter.map(parseFilter);
  const categories = new Set([...by, ...filters.map((f) => f.dimension)].flatMap((d) => (d.kind === 'category' ? [d.category] : [])));
  if (categories.size > 1) throw new ExploreRequestError(`one allocation category per view (each splits the same cost its own way); got ${[...categories].join(', ')}`);
  const metric = METRIC_TEXT.exec(raw.metric ?? 'cost')!;
  const unitMetric = metric[2];
  if (raw.changed_since !== undefined && raw.as_of !== undefined) throw new ExploreRequestError('changed_since compares the figures then with the figures now; give as_of or changed_since, not both');
  // the restatement log keeps billing totals; a unit cost's quantity (metrics_daily) has no history to compare with
  if (raw.changed_since !== undefined && unitMetric !== undefined) throw new ExploreRequestError('changed_since compares cost or gpu_hours; a unit cost has no restatement log (use metric=cost)');
  return {
    ...range,
    preset: raw.preset,
    granularity: raw.granularity ?? 'day',
    by,
    filters,
    metric: unitMetric !== undefined ? 'unit_cost' : (metric[1] as Metric),
    unitMetric,
    unitScope: '',
    asOf: moment(raw.as_of),
    changedSince: moment(raw.changed_since),
  };
}

/** The URL parameters of a request, in a stable order: the link for a view (a preset stays a preset). */
export function requestParams(r: ExploreRequest): URLSearchParams {
  const p = new URLSearchParams();
  if (r.preset) p.set('preset', r.preset);
  else (p.set('from', r.from), p.set('to', r.to));
  p.set('granularity', r.granularity);
  for (const d of r.by) p.append('by', dimensionText(d));
  for (const f of r.filters) p.append('filter', filterText(f));
  if (r.metric !== 'cost') p.set('metric', r.metric === 'unit_cost' ? `unit_cost:${r.unitMetric}` : r.metric);
  if (r.asOf) p.set('as_of', r.asOf.text);
  if (r.changedSince) p.set('changed_since', r.changedSince.text);
  return p;
}
