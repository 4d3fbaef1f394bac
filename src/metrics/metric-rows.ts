// The rows of a metrics file, checked whole before anything is written: a UTC day, a metric name, a non-negative
// decimal kept as its exact text (DECIMAL(38,6) in raw_metrics, never a float), a scope (scope.ts) and optionally the
// account it belongs to. The first bad row refuses the file with one line naming its line and field.
import { EXIT, GpuledgerError } from '../util/errors.ts';
import { checkScope } from './scope.ts';
import { isCalendarDay } from '../util/dates.ts';

export const METRICS_HEADER = ['date', 'metric', 'value', 'scope', 'account'] as const;

/** Columns a file may leave out: scope (the whole account) and account (--account, or the config's only account). */
export const OPTIONAL_COLUMNS: readonly string[] = ['scope', 'account'];

/** The columns as a message lists them. */
export const ACCEPTED_COLUMNS = 'date, metric, value, scope (optional), account (optional)';

/** A field of a metrics file as read, with the line (CSV) or record number (Parquet/JSON) that holds it. */
export interface RawMetricRow {
  line: number;
  date: string;
  metric: string;
  value: string;
  scope: string;
  /** '' when the file has no account column or leaves the field empty. */
  account: string;
}

export interface MetricRow {
  line: number;
  day: string;
  metric: string;
  /** Exact decimal text, e.g. '1250' or '0.75'. */
  value: string;
  scope: string;
  /** The account the row names; '' for the import's account (--account, or the config's only one). */
  account: string;
}

/** The file is refused whole: a usage error (exit 2) naming where and what. */
export class MetricsFileError extends GpuledgerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('metrics_file', message, EXIT.usage, options);
  }
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// digits, optionally a fraction; no sign, no exponent: a value is a count or an amount, never negative
const DECIMAL = /^(\d+)(?:\.(\d{1,6}))?$/;

/**
 * The largest value gpuledger takes. rpt_unit_cost divides in integers – 2 × cost in micro-dollars × 10⁹ + quantity
 * in micro-units, over 2 × quantity – and rpt_unit_cost_7d sums seven days first, within DuckDB's DECIMAL(38,6) and
 * HUGEINT: measured, 25 integer digits still compute and 26 overflow the seven-day sum (a 32-digit value broke every
 * unit-cost view, the nightly report and the unit-cost alert). 15 digits leave room for longer windows, and a
 * quadrillion units a day is more than any business counts. test/views/unit-cost-range.test.ts holds the boundary.
 */
export const MAX_METRIC_VALUE = '999999999999999.999999';
const MAX_INTEGER_DIGITS = MAX_METRIC_VALUE.split('.')[0]!.length;
const METRIC = /^[A-Za-z][A-Za-z0-9_.-]*$/;

// exactly 4-2-2 digits (DAY), and a day the calendar has (no 2026-02-30)
const isUtcDay = (s: string) => DAY.test(s) && isCalendarDay(s);

function valueProblem(v: string): string | undefined {
  const m = DECIMAL.exec(v);
  if (m) {
    const digits = m[1]!.replace(/^0+(?=\d)/, '');
    return digits.length > MAX_INTEGER_DIGITS
      ? `value '${v}' is larger than ${MAX_METRIC_VALUE}, the largest a unit cost can be computed from`
      : undefined;
  }
  if (/^-\s*\d/.test(v)) return `negative value '${v}'; a metric value is ≥ 0`;
  if (/^\d+\.\d{7,}$/.test(v)) return `value '${v}' has more than 6 decimal places`;
  return `'${v}' is not a non-negative decimal (e.g. 1250 or 0.75)`;
}

/** Check every row; the first problem throws MetricsFileError `FILE line N, field F: …`. */
export function checkMetricRows(file: string, rows: readonly RawMetricRow[], categories: readonly string[], unit = 'line'): MetricRow[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const at = (field: string, problem: string) => new MetricsFileError(`${file} ${unit} ${r.line}, field ${field}: ${problem}`);
    const date = r.date.trim();
    if (!isUtcDay(date)) throw at('date', `'${date}' is not a UTC day YYYY-MM-DD`);
    const metric = r.metric.trim();
    if (!METRIC.test(metric)) throw at('metric', `'${metric}' is not a metric name (a letter, then letters, digits, '_', '.' or '-')`);
    const value = r.value.trim();
    const problem = valueProblem(value);
    if (problem) throw at('value', problem);
    const scope = checkScope(r.scope, categories);
    if (!scope.ok) throw at('scope', scope.problem);
    const account = r.account.trim();
    const key = `${account}\u0000${date}\u0000${metric}\u0000${scope.scope}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw at('date', `${date} ${metric} '${scope.scope}' is already given on ${unit} ${earlier}; one value per day, metric and scope`);
    seen.set(key, r.line);
    return { line: r.line, day: date, metric, value, scope: scope.scope, account };
  });
}
