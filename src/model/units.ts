// What every number a person reads is measured in, said once. A unit says how a stored value is shown – prefix,
// decimals, suffix, and for a duration the scale from what the view stores to what a person reads ("348 days", not
// "8,358.88 hours"). COLUMN_UNITS gives every column of the rpt_* views (and every column the shipped reports compute
// from them) its unit; the workbook's number formats, the HTML report's and serve's text, the email and the alerts
// all format from here (src/report/cells, unit-text.ts), so a column cannot read as dollars in one place and as a bare
// number in another. test/model/units.test.ts fails on a report view column without a unit. One table on purpose
// (past 250 lines with showback's columns): split, a column's unit would have two places to be looked up in.

export interface NumberUnit {
  kind: 'number';
  /** What the unit is, for people (docs, messages). */
  says: string;
  decimals: number;
  /** Fewer decimals when they are zeros ("3", "2.5"): only for numbers nobody declared. */
  trimZeros?: boolean;
  prefix?: '$';
  suffix?: string;
  /** Shown = stored ÷ divisor (a duration stored in hours and read in days: 24). */
  divisor?: number;
}

export interface PlainUnit {
  kind: 'date' | 'datetime' | 'text' | 'boolean';
  says: string;
}

export const UNITS = {
  usd: { kind: 'number', says: 'US dollars', decimals: 2, prefix: '$' },
  usd_per_hour: { kind: 'number', says: 'US dollars an hour', decimals: 2, prefix: '$', suffix: '/h' },
  // a business unit (an image, a job, a GPU-hour) often costs cents or less: four decimals show a change of 1 %
  usd_per_unit: { kind: 'number', says: 'US dollars per unit of the metric', decimals: 4, prefix: '$' },
  // the views hold a percent as 0–100 (views-contract.md: change_pct 12.5 means +12.5 %), shown as stored
  percent: { kind: 'number', says: 'percent, stored 0–100', decimals: 1, suffix: ' %' },
  ratio: { kind: 'number', says: 'a ratio (1 = all)', decimals: 2 },
  hours: { kind: 'number', says: 'hours', decimals: 1, suffix: ' h' },
  days_from_hours: { kind: 'number', says: 'a duration stored in hours, read in whole days', decimals: 0, suffix: ' days', divisor: 24 },
  count: { kind: 'number', says: 'a whole count', decimals: 0 },
  quantity: { kind: 'number', says: 'a quantity in the unit its metric names', decimals: 2 },
  number: { kind: 'number', says: 'a number without a declared unit (up to 2 decimals)', decimals: 2, trimZeros: true },
  date: { kind: 'date', says: 'a UTC day' },
  datetime: { kind: 'datetime', says: 'an instant, on the configured clock' },
  text: { kind: 'text', says: 'text' },
  boolean: { kind: 'boolean', says: 'yes or no' },
} as const satisfies Record<string, NumberUnit | PlainUnit>;

export type Unit = keyof typeof UNITS;
export const UNIT_NAMES = Object.keys(UNITS) as [Unit, ...Unit[]];

export function unitSpec(unit: Unit): NumberUnit | PlainUnit {
  return UNITS[unit];
}

export function isNumberUnit(unit: Unit): boolean {
  return UNITS[unit].kind === 'number';
}

/**
 * The unit of each column name of the rpt_* views, and of the columns the shipped reports (reports/*.yaml) compute
 * from them. A name means the same in every view (test/model/units.test.ts checks each view's SQL type fits).
 */
export const COLUMN_UNITS: Record<string, Unit> = {
  // money
  // (a budget's amount is `amount`; its running actual `cumulative_amount`)
  actual: 'usd',
  aggregate_amount: 'usd',
  amount: 'usd',
  balance: 'usd',
  balance_end: 'usd',
  change_amount: 'usd',
  cluster: 'usd',
  cost: 'usd',
  cumulative_amount: 'usd',
  expected_amount: 'usd',
  difference: 'usd',
  family_amount: 'usd',
  forecast: 'usd',
  forecast_cumulative: 'usd',
  forecast_high: 'usd',
  forecast_high_cumulative: 'usd',
  forecast_low: 'usd',
  forecast_low_cumulative: 'usd',
  kept_amount: 'usd',
  last_30_days_amount: 'usd',
  month_change_amount: 'usd',
  month_to_date: 'usd',
  month_to_last_day: 'usd',
  monthly_cost: 'usd',
  pod: 'usd',
  previous_amount: 'usd',
  previous_month: 'usd',
  previous_month_same_day: 'usd',
  previous_month_to_date: 'usd',
  previous_month_to_last_day: 'usd',
  public_endpoint: 'usd',
  serverless: 'usd',
  spend: 'usd',
  storage: 'usd',
  top_ups: 'usd',
  total: 'usd',
  waste_monthly: 'usd',
  spend_avoided: 'usd',
  // what a guardrail proposal saves per day at the resource's cost now (rpt_guardrail_proposals)
  saving_per_day: 'usd',
  // money per hour and per unit
  billed_per_hour_24h: 'usd_per_hour',
  hourly_cost: 'usd_per_hour',
  spend_limit_per_hour: 'usd_per_hour',
  spend_per_hour: 'usd_per_hour',
  storage_only_per_hour: 'usd_per_hour',
  unit_cost: 'usd_per_unit',
  unit_cost_7d: 'usd_per_unit',
  // percent (0–100) and ratios
  change_pct: 'percent',
  // rpt_budgets: the actual and the forecast as a share of the amount, the highest threshold the actual reached
  actual_pct: 'percent',
  forecast_pct: 'percent',
  last_threshold_pct: 'percent',
  // the forecast's median absolute error in its own back-test (rpt_month_forecast)
  backtest_error_pct: 'percent',
  month_change_pct: 'percent',
  share_pct: 'percent',
  spend_limit_used_pct: 'percent',
  share_to_come: 'ratio',
  // rpt_month_forecast_days: the range of what is still to come, and the back-test's median error, as ratios of it
  range_low_ratio: 'ratio',
  range_high_ratio: 'ratio',
  backtest_median_error: 'ratio',
  // durations
  runway_hours: 'hours',
  hours_stopped: 'hours',
  runway_hours_at_billed_rate: 'hours',
  storage_runway_hours: 'days_from_hours',
  // counts and quantities
  buckets_compared: 'count',
  cost_rows: 'count',
  days_elapsed: 'count',
  days_until_forecast_reaches: 'count',
  thresholds_crossed: 'count',
  days_in_month: 'count',
  history_days: 'count',
  backtest_origins: 'count',
  rank: 'count',
  rule_count: 'count',
  split: 'count',
  split_count: 'count',
  waste_findings: 'count',
  weekday: 'count',
  workers_min: 'count',
  quantity: 'quantity',
  // days and instants
  day: 'date',
  // rpt_budgets: the budget's period, the first day its actual reached a threshold and its forecast the amount
  as_of_date: 'date',
  forecast_reaches_on: 'date',
  last_threshold_crossed_on: 'date',
  period_end: 'date',
  period_start: 'date',
  first_covered_day: 'date',
  last_complete_day: 'date',
  month: 'date',
  month_start: 'date',
  week_start: 'date',
  as_of: 'datetime',
  acted_at: 'datetime',
  planned_at: 'datetime',
  undone_at: 'datetime',
  bucket_start: 'datetime',
  complete_through: 'datetime',
  finished_at: 'datetime',
  last_observed_at: 'datetime',
  last_success_at: 'datetime',
  last_sync_at: 'datetime',
  loaded_from: 'datetime',
  loaded_through: 'datetime',
  observed_at: 'datetime',
  runs_out_at: 'datetime',
  started_at: 'datetime',
  written_at: 'datetime',
  // yes or no
  day_final: 'boolean',
  estimated: 'boolean',
  is_complete: 'boolean',
  is_forecast: 'boolean',
  is_history: 'boolean',
  is_unallocated: 'boolean',
  // words and identifiers
  account: 'text',
  action_id: 'text',
  approved_by: 'text',
  approval: 'text',
  approve_command: 'text',
  planned_by: 'text',
  proposal_id: 'text',
  guardrail_action: 'text',
  rule: 'text',
  budget: 'text',
  endpoint: 'text',
  gpu_type: 'text',
  period: 'text',
  template: 'text',
  thresholds: 'text',
  thresholds_crossed_on: 'text',
  api_url: 'text',
  attribution: 'text',
  balance_basis: 'text',
  billing_basis: 'text',
  billing_evidence: 'text',
  billing_model: 'text',
  bucket_size: 'text',
  category: 'text',
  command: 'text',
  component: 'text',
  data: 'text',
  data_center_id: 'text',
  default_value: 'text',
  dimension: 'text',
  endpoint_id: 'text',
  endpoint_name: 'text',
  errors: 'text',
  family: 'text',
  finding_id: 'text',
  forecast_method: 'text',
  gpu_type_id: 'text',
  gpu_type_name: 'text',
  kept_value: 'text',
  kind: 'text',
  last_run_status: 'text',
  metric: 'text',
  name: 'text',
  quantity_basis: 'text',
  reason: 'text',
  resource_id: 'text',
  resource_kind: 'text',
  resource_name: 'text',
  risk: 'text',
  rules_hash: 'text',
  run_id: 'text',
  runway_note: 'text',
  scope: 'text',
  scope_label: 'text',
  series_id: 'text',
  series_name: 'text',
  source: 'text',
  split_from: 'text',
  suggested_rule: 'text',
  status: 'text',
  template_id: 'text',
  template_name: 'text',
  value: 'text',
  verdict: 'text',
  warning: 'text',

  // computed by the shipped reports' queries (reports/*.yaml) from the columns above
  basis: 'text',
  billing: 'text',
  budget_forecast_pct: 'percent',
  budget_monthly: 'usd',
  budget_used_pct: 'percent',
  bucket_start_utc: 'datetime',
  credits_less_spend: 'usd',
  credits_purchased: 'usd',
  month_change: 'usd',
  month_total: 'usd',
  resource: 'text',
  direct_amount: 'usd',
  split_amount: 'usd',
  unallocated_amount: 'usd',
  unallocated_pct: 'percent',
};

/** The declared unit of a column name, or undefined when none is declared. */
export function declaredUnit(column: string): Unit | undefined {
  return Object.hasOwn(COLUMN_UNITS, column) ? COLUMN_UNITS[column] : undefined;
}
