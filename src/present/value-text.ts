// A value as a person reads it on a page or in an email, in its column's unit (src/model/units.ts): numbers through
// unitText – the text the alerts and the workbook's number formats agree with –, days and instants on the configured
// clock, yes/no, and text as it came. NULL reads as an en dash: an empty cell would look like a value lost.
import { tz } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { unitSpec, unitText, type Unit } from '../model/index.ts';
import { HAS_OFFSET, parseTimestamp, wallClock } from '../util/timestamps.ts';
import { parseDay } from '../util/utc-days.ts';

const UTC = { in: tz('UTC') }; // the Date's UTC fields are the wall clock shown

/** A day or an instant as the Date whose UTC fields are the wall clock shown; undefined when it is not one. */
function shownTime(value: string, unit: 'date' | 'datetime', timeZone: string): Date | undefined {
  if (unit === 'date') {
    const day = parseDay(value);
    if (day) return day;
    const t = parseTimestamp(value);
    return t && wallClock(t, timeZone);
  }
  const t = parseTimestamp(value) ?? parseDay(value);
  // an instant (with an offset) is shown on the configured clock; a naive TIMESTAMP is a wall-clock time already
  return t && (HAS_OFFSET.test(value) ? wallClock(t, timeZone) : t);
}

export function valueText(value: unknown, unit: Unit, timeZone: string, options: { signed?: boolean } = {}): string {
  if (value === null || value === undefined) return '–';
  const spec = unitSpec(unit);
  switch (spec.kind) {
    case 'number':
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? unitText(value, unit, options) : String(value);
    case 'date':
    case 'datetime': {
      if (typeof value !== 'string') return String(value);
      const d = shownTime(value, spec.kind, timeZone);
      if (!d) return value;
      const day = format(d, 'yyyy-MM-dd', UTC);
      // a naive TIMESTAMP is a wall-clock time already (`bucket_start at time zone 'UTC'`): not on the configured clock
      const zone = parseTimestamp(value) !== undefined && !HAS_OFFSET.test(value) ? '' : ` ${timeZone}`;
      return spec.kind === 'date' ? day : `${day} ${format(d, 'HH:mm', UTC)}${zone}`;
    }
    case 'boolean':
      return value === true ? 'yes' : value === false ? 'no' : String(value);
    case 'text':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** An instant as people read it: "2026-11-21 07:00 Europe/Berlin". */
export function instantText(t: Date, timeZone: string): string {
  return valueText(t.toISOString().replace('T', ' ').replace('Z', '+00'), 'datetime', timeZone);
}
