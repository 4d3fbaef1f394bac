// Values as text, for the summary's notes and the email body (the workbook itself keeps numbers and dates).
// Money goes through usdText (src/util/money-text.ts), which the alert messages share.
import { usdText } from '../../util/money-text.ts';
import type { ColumnFormat } from './styles.ts';
import { toCellValue } from './values.ts';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function formatText(value: unknown, format: ColumnFormat, timeZone: string, options: { signed?: boolean } = {}): string {
  if (value === null || value === undefined) return '–';
  switch (format) {
    case 'usd':
      return usdText(value as string | number, options);
    case 'percent': {
      const n = Number(value);
      return `${options.signed && n > 0 ? '+' : ''}${n.toFixed(1)} %`;
    }
    case 'number':
      return Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 });
    case 'integer':
      return Number(value).toLocaleString('en-US');
    case 'date':
    case 'datetime': {
      const d = toCellValue(value, format, timeZone);
      if (!(d instanceof Date)) return String(d);
      const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
      return format === 'date' ? day : `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} ${timeZone}`;
    }
    case 'boolean':
      return value === true ? 'yes' : value === false ? 'no' : String(value);
    case 'text':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** An instant as people read it: "2026-11-21 07:00 Europe/Berlin". */
export function instantText(t: Date, timeZone: string): string {
  return formatText(t.toISOString().replace('T', ' ').replace('Z', '+00'), 'datetime', timeZone);
}
