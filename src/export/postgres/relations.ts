// What `export postgres` mirrors: ONE declaration per table. Each table is a public DuckDB view under the same name
// with the same columns (docs/views.md describes them; docs/postgres.md lists the PostgreSQL types), so a query moves
// between DuckDB and PostgreSQL unchanged. The columns and their types are read from DuckDB at export time
// (column-types.ts), never restated here.
//
// grain 'day': one slice per (account, day); only slices whose rows changed since the last export are rewritten –
//   the day-by-day history, which grows every day and is restated now and then.
// grain 'whole': one slice, replaced whole when any row changed – views "as of now" (month to date, latest
//   runway, current inventory), small by nature, that a sync can change anywhere.

export interface MirroredRelation {
  /** The PostgreSQL table. */
  table: string;
  /** The DuckDB view it reads (the same name, except freshness). */
  view: string;
  grain: 'day' | 'whole';
  /** Indexes for the usual filters, each a list of columns. Day tables also get (account, day), the slice key. */
  indexes: readonly (readonly string[])[];
  /** Add exported_at: when the export that wrote the row started (its transaction; freshness). */
  exportedAt?: boolean;
}

export const MIRRORED_RELATIONS: readonly MirroredRelation[] = [
  // day by day
  {
    table: 'cost_daily',
    view: 'cost_daily',
    grain: 'day',
    indexes: [['day'], ['family', 'day'], ['template_id', 'day'], ['endpoint_id', 'day']],
  },
  { table: 'cost_allocated', view: 'cost_allocated', grain: 'day', indexes: [['day'], ['category', 'value', 'day'], ['family', 'day']] },
  { table: 'rpt_spend_daily', view: 'rpt_spend_daily', grain: 'day', indexes: [['day'], ['family', 'day']] },
  { table: 'rpt_balance_daily', view: 'rpt_balance_daily', grain: 'day', indexes: [['day']] },
  { table: 'rpt_runway_history', view: 'rpt_runway_history', grain: 'day', indexes: [['observed_at']] },
  { table: 'rpt_unit_cost', view: 'rpt_unit_cost', grain: 'day', indexes: [['day'], ['metric', 'scope', 'day']] },
  { table: 'rpt_unit_cost_7d', view: 'rpt_unit_cost_7d', grain: 'day', indexes: [['day'], ['metric', 'scope', 'day']] },
  // as of now
  { table: 'rpt_spend_weekly', view: 'rpt_spend_weekly', grain: 'whole', indexes: [['account', 'week_start']] },
  { table: 'rpt_spend_monthly', view: 'rpt_spend_monthly', grain: 'whole', indexes: [['account', 'month']] },
  { table: 'rpt_month_forecast', view: 'rpt_month_forecast', grain: 'whole', indexes: [] },
  { table: 'rpt_summary_figures', view: 'rpt_summary_figures', grain: 'whole', indexes: [] },
  { table: 'rpt_by_template', view: 'rpt_by_template', grain: 'whole', indexes: [['template_id']] },
  { table: 'rpt_by_endpoint', view: 'rpt_by_endpoint', grain: 'whole', indexes: [['endpoint_id']] },
  { table: 'rpt_by_gpu_type', view: 'rpt_by_gpu_type', grain: 'whole', indexes: [['gpu_type_id']] },
  { table: 'rpt_by_category', view: 'rpt_by_category', grain: 'whole', indexes: [['category', 'value']] },
  { table: 'rpt_top_resources', view: 'rpt_top_resources', grain: 'whole', indexes: [['account', 'rank']] },
  { table: 'rpt_top_movers', view: 'rpt_top_movers', grain: 'whole', indexes: [] },
  { table: 'rpt_waste', view: 'rpt_waste', grain: 'whole', indexes: [['account', 'kind']] },
  { table: 'rpt_runway', view: 'rpt_runway', grain: 'whole', indexes: [] },
  { table: 'rpt_runway_at_risk', view: 'rpt_runway_at_risk', grain: 'whole', indexes: [] },
  { table: 'dim_resource', view: 'dim_resource', grain: 'whole', indexes: [['account', 'resource_id'], ['template_id'], ['endpoint_id']] },
  { table: 'dim_template', view: 'dim_template', grain: 'whole', indexes: [['account', 'template_id']] },
  { table: 'dim_endpoint', view: 'dim_endpoint', grain: 'whole', indexes: [['account', 'endpoint_id']] },
  { table: 'dim_gpu_type', view: 'dim_gpu_type', grain: 'whole', indexes: [['account', 'gpu_type_id']] },
  // last: it changes on every export (exported_at), so a reader can always tell which export it sees
  { table: 'freshness', view: 'rpt_data_freshness', grain: 'whole', indexes: [], exportedAt: true },
];

/** The columns of a day table's slice key. */
export const SLICE_KEY = ['account', 'day'] as const;

/** Every index of a relation: the slice key first for day tables. */
export function indexesOf(relation: MirroredRelation): (readonly string[])[] {
  return relation.grain === 'day' ? [SLICE_KEY, ...relation.indexes] : [...relation.indexes];
}
