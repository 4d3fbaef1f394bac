// Money as text for people – the report's summary notes and email, and every alert message – formatted from the
// exact DECIMAL string through bigint micros, never from a double sum (STYLE.md §5).
import { decimalStringToMicros } from './decimal.ts';

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "12345.678900" → "$12,345.68" (half away from zero at the cent). */
export function usdText(value: string | number, options: { signed?: boolean } = {}): string {
  const micros = decimalStringToMicros(String(value));
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const cents = (abs + 5_000n) / 10_000n;
  const text = `$${groupThousands((cents / 100n).toString())}.${(cents % 100n).toString().padStart(2, '0')}`;
  if (negative && cents > 0n) return `-${text}`;
  return options.signed && cents > 0n ? `+${text}` : text;
}
