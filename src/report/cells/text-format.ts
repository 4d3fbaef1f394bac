// Values as text, for the HTML report, serve's pages, the summary's notes and the email body (the workbook itself
// keeps numbers and dates). Numbers go through unitText (src/model/unit-text.ts), which the alert messages share,
// with the prefix, decimals and suffix of their unit – the same the workbook's number format shows.
import { unitSpec, unitText } from '../../model/index.ts';
import type { ColumnFormat } from './styles.ts';
import { HAS_OFFSET, parseTimestamp, toCellValue } from './values.ts';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function formatText(value: unknown, format: ColumnFormat, timeZone: string, options: { signed?: boolean } = {}): string {
  if (value === null || value === undefined) return '–';
  const spec = unitSpec(format);
  if (spec.kind === 'number') return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? unitText(value, format, options) : String(value);
  switch (spec.kind) {
    case 'date':
    case 'datetime': {
      const d = toCellValue(value, format, timeZone);
      if (!(d instanceof Date)) return String(d);
      const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
      // a naive TIMESTAMP is a wall-clock time already (`bucket_start at time zone 'UTC'`): not on the configured clock
      const zone = typeof value === 'string' && parseTimestamp(value) !== undefined && !HAS_OFFSET.test(value) ? '' : ` ${timeZone}`;
      return format === 'date' ? day : `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${zone}`;
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
