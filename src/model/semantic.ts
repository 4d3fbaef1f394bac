// The semantic layer, said once (issue 41 point 1; Malloy's sources, dbt's semantic models): every *dimension* a
// person groups and filters cost by – its key, its heading, the word a sentence uses for it, its SQL over the cost
// facts and whether GPU-hours carry it – and every *measure* shown of cost – its heading, its unit, its columns and
// whether up is bad. The explorer's SQL (explore/facts.ts), /drill, the anomaly incident's words, the explorer's,
// saved views' and their workbooks' headings, serve's up-is-bad colouring and the explorer CSV's column names read
// it here. test/model/semantic-labels.test.ts fails on a dimension's or measure's heading written as a literal
// anywhere else in src/.
import { COST_FAMILIES, FAMILIES } from './cost-families.ts';
import { quote } from './generated-sql-text.ts';
import type { Unit } from './units.ts';

export interface DimensionDecl {
  /** A table or chart heading: "GPU type". */
  label: string;
  /** The dimension in a sentence ("Pods by GPU type", "template trainer spent …"). */
  word: string;
  /** SQL of the group's key over the cost facts (cost_daily, cost_allocated, rpt_cost_detail, gpu_hours_daily):
   * what a filter matches and a link carries. A missing value is '(none)', never null. */
  key: string;
  /** SQL of the name shown for a key where it differs from the key (the resource's name, a family's label). */
  name?: string;
  /** The CSV's column prefix: `<column>_key`, `<column>_name`. */
  column: string;
  /** Whether gpu_hours_daily has it (it has no template and no component). */
  gpuHours: boolean;
}

const none = (column: string) => `coalesce(${column}, '(none)')`;

// a family is keyed by its id (what filters and links carry) and shown by the model's label
const FAMILY_LABEL_SQL = `case family ${FAMILIES.map((f) => `when ${quote(f)} then ${quote(COST_FAMILIES[f].label)}`).join(' ')} else family end`;

// names (not ids) key templates, endpoints and GPU types: every fact relation has the names, cost_allocated and
// gpu_hours_daily have no template or endpoint ids, and a name is what a person filters by
export const DIMENSIONS = {
  family: { label: 'Family', word: 'family', key: 'family', name: FAMILY_LABEL_SQL, column: 'family', gpuHours: true },
  template: { label: 'Template', word: 'template', key: none('template_name'), column: 'template', gpuHours: false },
  endpoint: { label: 'Endpoint', word: 'endpoint', key: none('endpoint_name'), column: 'endpoint', gpuHours: true },
  gpu_type: { label: 'GPU type', word: 'GPU type', key: none('gpu_type_name'), column: 'gpu_type', gpuHours: true },
  resource: { label: 'Resource', word: 'resource', key: none('resource_id'), name: 'resource_name', column: 'resource', gpuHours: true },
  account: { label: 'Account', word: 'account', key: 'account', column: 'account', gpuHours: true },
  component: { label: 'Component', word: 'component', key: 'component', column: 'component', gpuHours: false },
} as const satisfies Record<string, DimensionDecl>;

export type DimensionName = keyof typeof DIMENSIONS;
export const DIMENSION_NAMES = Object.keys(DIMENSIONS) as [DimensionName, ...DimensionName[]];

/** An allocation category as a dimension (`category:team`): its heading. */
export const categoryLabel = (category: string) => `Category ${category}`;

export interface MeasureDecl {
  /** A table heading: "Share". */
  label: string;
  /** The unit of its headline column (the first of `columns`); each column's own unit is COLUMN_UNITS' (units.ts). */
  unit: Unit;
  /** The view columns that hold this measure: what a page colours by. */
  columns: readonly string[];
  /** Whether an increase is bad news (coloured red, shown signed): cost and its changes are. */
  upIsBad: boolean;
}

export const MEASURES = {
  cost: { label: 'Cost', unit: 'usd', columns: ['amount'], upIsBad: false },
  gpu_hours: { label: 'GPU-hours', unit: 'hours', columns: ['gpu_hours'], upIsBad: false },
  // "Cost per image": the unit's own word follows
  unit_cost: { label: 'Cost per', unit: 'usd_per_unit', columns: ['unit_cost', 'unit_cost_7d'], upIsBad: false },
  // a group's part of the total, 0–100
  share: { label: 'Share', unit: 'percent', columns: ['share_pct'], upIsBad: false },
  // against the period before: more spend is the news a cost tool exists to colour
  change: { label: 'Change', unit: 'percent', columns: ['change_pct', 'change_amount', 'month_change_pct', 'month_change_amount', 'month_change'], upIsBad: true },
} as const satisfies Record<string, MeasureDecl>;

export type MeasureName = keyof typeof MEASURES;

const UP_IS_BAD = new Set(Object.values(MEASURES).flatMap((m: MeasureDecl) => (m.upIsBad ? m.columns : [])));

/** Whether a view column's increase is bad news: declared by its measure, not guessed from its name. */
export const upIsBad = (column: string) => UP_IS_BAD.has(column);

/** SQL of a group's share (0–100) of the sum of `value` over the query's groups (a window over the grouped rows). */
export const shareSql = (value: string) => `100 * sum(${value}) / nullif(sum(sum(${value})) over (), 0)`;

/** The heading of a unit cost: "Cost per image". */
export const unitCostLabel = (unitMetric: string) => `${MEASURES.unit_cost.label} ${unitMetric}`;
