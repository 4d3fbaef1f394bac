// What the explorer reads, said once as a whitelist: per metric the materialised facts it sums (cost_daily, or
// cost_allocated for a view that names an allocation category, gpu_hours_daily for GPU-hours) and per dimension the
// SQL expression of its key and name there. SQL text is made only from these fragments, picked by the parsed enums;
// a value from the URL (a filter's value, a category's name, a day) is always a bound parameter.
import { DIMENSION_NAMES, DIMENSIONS, type DimensionDecl } from '../model/semantic.ts';
import { dimensionText, ExploreRequestError, type Dimension, type ExploreRequest, type PlainDimension } from './request.ts';

export interface DimensionSql {
  /** The group's key: what a filter matches and the CSV's `<dim>_key`. A missing value is '(none)', never null. */
  key: string;
  /** The group's name where it differs from the key (the latest name in the range); else the key is the name. */
  name?: string;
  /** The CSV's column prefix: `<prefix>_key`, `<prefix>_name`. */
  column: string;
}

export interface FactsSource {
  /** The relation read (a public view over a fct_* table). */
  relation: string;
  /** The summed column. */
  value: string;
  /** The CSV's metric column. */
  valueColumn: 'amount' | 'gpu_hours';
  /** A condition every row read meets, besides the range and the filters (may use $category). */
  where: string;
  /** The category a view names, bound as $category; undefined when it names none. */
  category: string | undefined;
  dimensions: Partial<Record<PlainDimension, DimensionSql>>;
}

// every dimension's SQL is the semantic layer's (model/semantic.ts); GPU-hours carry the ones it marks
const COST_DIMENSIONS: Record<PlainDimension, DimensionSql> = Object.fromEntries(
  Object.entries(DIMENSIONS).map(([d, decl]: [string, DimensionDecl]) => [d, { key: decl.key, ...(decl.name === undefined ? {} : { name: decl.name }), column: decl.column }]),
) as Record<PlainDimension, DimensionSql>;

const GPU_HOURS_DIMENSIONS: Partial<Record<PlainDimension, DimensionSql>> = Object.fromEntries(
  DIMENSION_NAMES.filter((d) => DIMENSIONS[d].gpuHours).map((d) => [d, COST_DIMENSIONS[d]]),
);

const CATEGORY: DimensionSql = { key: 'value', column: 'category' };

/** The facts a request reads, refusing a dimension the metric's facts do not have. */
export function factsSource(r: ExploreRequest): FactsSource {
  const named = [...r.by, ...r.filters.map((f) => f.dimension)];
  const category = named.find((d): d is Extract<Dimension, { kind: 'category' }> => d.kind === 'category')?.category;
  let source: FactsSource;
  if (r.metric === 'gpu_hours') {
    if (category !== undefined) throw new ExploreRequestError(`metric gpu_hours has no allocation categories: group or filter by ${Object.keys(GPU_HOURS_DIMENSIONS).join(', ')}`);
    source = { relation: 'gpu_hours_daily', value: 'gpu_hours', valueColumn: 'gpu_hours', where: 'gpu_hours is not null', category: undefined, dimensions: GPU_HOURS_DIMENSIONS };
  } else if (category !== undefined) {
    source = { relation: 'cost_allocated', value: 'amount', valueColumn: 'amount', where: 'category = $category', category, dimensions: COST_DIMENSIONS };
  } else {
    source = { relation: 'cost_daily', value: 'amount', valueColumn: 'amount', where: 'true', category: undefined, dimensions: COST_DIMENSIONS };
  }
  for (const d of named) dimensionSql(source, d, r);
  return source;
}

export function dimensionSql(source: FactsSource, d: Dimension, r: Pick<ExploreRequest, 'metric'>): DimensionSql {
  if (d.kind === 'category') return CATEGORY;
  const found = source.dimensions[d.name];
  if (!found) throw new ExploreRequestError(`metric ${r.metric} has no ${dimensionText(d)}: use ${Object.keys(source.dimensions).join(', ')}`);
  return found;
}
