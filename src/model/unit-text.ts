// A value as a person reads it in its unit: "$1,234.56", "$38.01/h", "$0.0296", "47.5 %", "180.1 h", "345 days".
// The one number-to-text of the house (issue 41 §3): pages, workbook summaries, the email, alert messages, the CLI
// and the charts' labels all write a number here, from the unit src/model/units.ts declares, so one figure cannot
// read two ways. Computed from the exact decimal text (DuckDB's DECIMAL string) in bigint, rounded half away from
// zero – never through a double sum (STYLE.md §5) – so the text agrees with the workbook's number format
// (src/report/cells/styles.ts builds it from the same unit). test/model/one-number-text.test.ts fails on a formatter
// written anywhere else.
import { decimalStringToMicros, microsToDecimalString, numberToPlainString } from '../util/decimal.ts';
import { UNITS, type NumberUnit, type Unit } from './units.ts';

/**
 * Where the places that used to write their own text differed from the unit's, each keeps what its readers have
 * always seen through one of these, named at the call.
 */
export interface UnitTextOptions {
  /** A '+' before a figure above zero: a change, where up and down both mean something. */
  signed?: boolean;
  /** Decimals other than the unit's: the explorer reads GPU-hours to the hundredth, where `hours` reads tenths. */
  decimals?: number;
  /**
   * Read the value as the store's micro-dollars first (DECIMAL(18,6), half away from zero) and refuse text that is
   * not a decimal with a RangeError: the alert messages, the guardrail's lines and the explorer always read figures
   * so. A value with more than six decimals is rounded twice – at the micro-dollar, then at the unit's decimals.
   */
  micros?: boolean;
  /** A negative figure that rounds to zero keeps its minus ("-$0.00"), as the charts' labels (Intl) always drew it. */
  minusOnZero?: boolean;
}

function plain(value: string | number | bigint): string {
  // 1e-7 and 1e21: the shortest form's digits, expanded rather than multiplied
  return typeof value === 'number' ? numberToPlainString(value) : String(value).trim();
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The text of a number in a number unit; a value that is not a decimal is shown as it came (never a silent 0). */
export function unitText(value: string | number | bigint, unit: Unit, options: UnitTextOptions = {}): string {
  const spec = UNITS[unit] as NumberUnit;
  if (spec.kind !== 'number') return String(value);
  const exact = options.micros ? microsToDecimalString(decimalStringToMicros(String(value))) : plain(value);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(exact);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return String(value);
  const places = options.decimals ?? spec.decimals;
  const negative = m[1] === '-' || Object.is(value, -0);
  const frac = m[3] ?? '';
  const n = BigInt((m[2] || '0') + frac);
  const num = n * 10n ** BigInt(places);
  const den = 10n ** BigInt(frac.length) * BigInt(spec.divisor ?? 1);
  const shown = (2n * num + den) / (2n * den); // half away from zero, on the absolute value
  const digits = shown.toString().padStart(places + 1, '0');
  const whole = places > 0 ? digits.slice(0, -places) : digits;
  let decimals = places > 0 ? digits.slice(-places) : '';
  if (spec.trimZeros) decimals = decimals.replace(/0+$/, '');
  const minus = negative && (shown > 0n || options.minusOnZero === true);
  const sign = minus ? '-' : options.signed && !negative && shown > 0n ? '+' : '';
  return `${sign}${spec.prefix ?? ''}${group(whole)}${decimals ? `.${decimals}` : ''}${spec.suffix ?? ''}`;
}
