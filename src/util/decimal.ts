// Exact money arithmetic. Amounts travel as micro-dollars in bigint (the store's DECIMAL(18,6)) or as decimal
// strings (what DuckDB's *Json readers return). A JS number is only ever an input from JSON.parse; it is turned
// into micros through its shortest decimal representation, never through floating-point multiplication.

export const MICROS_PER_DOLLAR = 1_000_000n;
const SCALE = 6;
const MAX_EXACT_MICROS = 1_000_000_000_000_000n; // $1e9

/**
 * A JSON number as micro-dollars. Uses the number's shortest round-trip decimal form (what the server wrote, for
 * any server that writes shortest forms) and rounds half away from zero at the sixth decimal.
 */
export function numberToMicros(x: number): bigint {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite amount: ${x}`);
  return decimalStringToMicros(numberToPlainString(x));
}

/** A decimal string ("12.34", "-0.000001", "1e-7", "3") as micro-dollars, rounded half away from zero. */
export function decimalStringToMicros(s: string): bigint {
  const plain = /e/i.test(s) ? numberToPlainString(Number(s)) : s.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(plain);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new RangeError(`not a decimal amount: '${s}'`);
  const negative = m[1] === '-';
  const intPart = m[2] || '0';
  const frac = m[3] ?? '';
  let micros = BigInt(intPart) * MICROS_PER_DOLLAR + BigInt((frac.slice(0, SCALE) || '0').padEnd(SCALE, '0'));
  if (frac.length > SCALE && frac.charCodeAt(SCALE) >= 53 /* '5' */) micros += 1n;
  return negative ? -micros : micros;
}

/** Micro-dollars as a fixed 6-decimal string: 1234500n → "1.234500". */
export function microsToDecimalString(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / MICROS_PER_DOLLAR;
  const frac = (abs % MICROS_PER_DOLLAR).toString().padStart(SCALE, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** Micro-dollars as the JSON number that represents them exactly in shortest form (for API bodies). */
export function microsToNumber(micros: bigint): number {
  // A double carries 15 significant decimal digits for sure, so amounts below $1e9 (≤ 15 digits at micro-dollar
  // precision) come back exactly through their shortest form. Larger single amounts do not occur in billing records.
  if (micros >= MAX_EXACT_MICROS || micros <= -MAX_EXACT_MICROS) throw new RangeError(`amount too large for an exact JSON number: ${micros} micro-dollars`);
  return Number(micros) / 1e6;
}

/** Sum of decimal strings, exactly. */
export function sumDecimalStrings(values: Iterable<string>): string {
  let total = 0n;
  for (const v of values) total += decimalStringToMicros(v);
  return microsToDecimalString(total);
}

/** A number's shortest decimal form with exponent notation expanded: 1e-7 → "0.0000001", 1e21 → "1" + 21 zeros. */
export function numberToPlainString(x: number): string {
  const s = String(x);
  if (!/e/i.test(s)) return s;
  // Expand exponent notation without floating-point work: digits and a shifted decimal point.
  const [mantissa, expStr] = s.toLowerCase().split('e') as [string, string];
  const exp = Number(expStr);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^[+-]/, '');
  const [intDigits, fracDigits = ''] = digits.split('.') as [string, string?];
  const all = intDigits + fracDigits;
  const point = intDigits.length + exp;
  let out: string;
  if (point <= 0) out = '0.' + '0'.repeat(-point) + all;
  else if (point >= all.length) out = all + '0'.repeat(point - all.length);
  else out = all.slice(0, point) + '.' + all.slice(point);
  return (negative ? '-' : '') + out;
}
