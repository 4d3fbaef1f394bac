// A value as a person reads it in its unit: "$1,234.56", "$38.01/h", "$0.0296", "47.5 %", "180.1 h", "345 days".
// Computed from the exact decimal text (DuckDB's DECIMAL string) in bigint, rounded half away from zero – never
// through a double sum (STYLE.md §5) – so the report's text, the email and the alerts agree with the workbook's
// number format (src/report/cells/styles.ts builds it from the same unit).
import { UNITS, type NumberUnit, type Unit } from './units.ts';

function plain(value: string | number | bigint): string {
  if (typeof value !== 'number') return String(value).trim();
  const s = String(value);
  // 1e-7 and 1e21: expand the shortest form's digits rather than multiplying
  if (!/e/i.test(s)) return s;
  const [mantissa, exp] = s.toLowerCase().split('e') as [string, string];
  const negative = mantissa.startsWith('-');
  const [int, frac = ''] = mantissa.replace('-', '').split('.') as [string, string?];
  const digits = int + frac;
  const point = int.length + Number(exp);
  const text = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + text;
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The text of a number in a number unit; a value that is not a decimal is shown as it came (never a silent 0). */
export function unitText(value: string | number | bigint, unit: Unit, options: { signed?: boolean } = {}): string {
  const spec = UNITS[unit] as NumberUnit;
  if (spec.kind !== 'number') return String(value);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(plain(value));
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return String(value);
  const negative = m[1] === '-';
  const frac = m[3] ?? '';
  const n = BigInt((m[2] || '0') + frac);
  const num = n * 10n ** BigInt(spec.decimals);
  const den = 10n ** BigInt(frac.length) * BigInt(spec.divisor ?? 1);
  const shown = (2n * num + den) / (2n * den); // half away from zero, on the absolute value
  const digits = shown.toString().padStart(spec.decimals + 1, '0');
  const whole = spec.decimals > 0 ? digits.slice(0, -spec.decimals) : digits;
  let decimals = spec.decimals > 0 ? digits.slice(-spec.decimals) : '';
  if (spec.trimZeros) decimals = decimals.replace(/0+$/, '');
  const sign = negative && shown > 0n ? '-' : options.signed && !negative && shown > 0n ? '+' : '';
  return `${sign}${spec.prefix ?? ''}${group(whole)}${decimals ? `.${decimals}` : ''}${spec.suffix ?? ''}`;
}
